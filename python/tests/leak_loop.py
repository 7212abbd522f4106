"""Create and destroy tilenav objects N times (test_leaks.make_objects), for valgrind:

    PYTHONMALLOC=malloc valgrind --leak-check=full venv/bin/python leak_loop.py [N]
"""

import gc
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_leaks import make_objects  # noqa: E402

makers = make_objects()
loops = int(sys.argv[1]) if len(sys.argv) > 1 else 7000
for i in range(loops):
    makers[i % len(makers)]()
del makers
gc.collect()
print(f"leak_loop: {loops} creations and destructions")
