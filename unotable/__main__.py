import sys

from unotable.cli import main

sys.exit(main())
