import sys

from gemtable.cli import main

if __name__ == "__main__":  # not again in the worker processes that "spawn" starts (Windows', macOS' default)
    sys.exit(main())
