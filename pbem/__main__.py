"""`python -m pbem`: the same as the `pbem` command."""

import sys

from pbem.cli import main

if __name__ == "__main__":
    sys.exit(main())
