# The cffi extension module built from build_ffi.py: `lib` holds the C functions and
# constants declared there, `ffi` the cffi interface.
from typing import Any

ffi: Any
lib: Any
