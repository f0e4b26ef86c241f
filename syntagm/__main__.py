"""``python -m syntagm`` – the same as the ``syntagm`` console script."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
