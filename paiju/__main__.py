import sys

from paiju.cli import main

sys.exit(main())
