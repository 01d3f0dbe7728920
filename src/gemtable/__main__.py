import sys

from gemtable.cli import main

sys.exit(main())
