"""``python -m service.cli …``: the ``paiju`` command, as the tests and bench/ start it."""
import sys

from . import main

sys.exit(main())
