from .messages import Message


class RuleViolation(Exception):
    """An event that breaks a "must" rule. ``rule`` is the rule ID from the rules specification;
    the message is a sentence with named blanks (rules/messages.py), so the edge can say it in
    its reader's language: ``RuleViolation("T-2.1", "{team} is drawn twice", team=team)``."""

    def __init__(self, rule: str, message: str | Message, /, **params):
        self.rule = rule
        self.text = message if isinstance(message, Message) else Message(message, **params)
        self.message = str(self.text)
        super().__init__(f"{rule}: {self.message}")
