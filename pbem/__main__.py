"""`python -m pbem`: the same as the `pbem` command."""

import sys

from pbem.cli import main

sys.exit(main())
