"""``python -m pyopl`` runs the command line."""
import sys

from .cli import run

sys.exit(run())
