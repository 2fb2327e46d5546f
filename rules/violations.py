class RuleViolation(Exception):
    """An event that breaks a "must" rule. ``rule`` is the rule ID from the rules specification."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
