"""A plugin that ends the program while it is being loaded."""

import sys

sys.exit()
