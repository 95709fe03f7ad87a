"""``python -m poolboard``: the ``poolboard`` command, for a checkout not installed."""

import sys

from poolboard.cli import main

sys.exit(main())
