"""python3 -m traffic.experiments NAME ..."""
import sys

from traffic.experiments import main

sys.exit(main())
