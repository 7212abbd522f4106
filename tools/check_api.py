#!/usr/bin/env python3
"""Check the mechanical API conventions of docs/API.md on the public headers and the include
graph of src/ (docs/ARCHITECTURE.md). Prints each violation and exits 1 when there is one.

    python3 tools/check_api.py            # from the repository root (CI runs it)

Rules checked:
  1. every `typedef struct tn_X_def {` has an `internal_cookie` field and a
     `tn_X_def tn_X_def_default(void)` function;
  2. every function declared in a public header is TN_API and named tn_*; no tn__ name;
  3. `double` appears in a public function signature or struct field only in the headers
     listed in DOUBLE_OK (each says why in its file comment);
  4. no public header speaks of "the book";
  5. the include graph of src/ (private headers included with "...") has no cycle, and no
     file includes search_internal.h except the search's own (search.c, jps.c, jpsplus.c)."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INC = os.path.join(ROOT, "include", "tilenav")
SRC = os.path.join(ROOT, "src")

# headers allowed to use double, and why (the header's own comment says it too)
DOUBLE_OK = {
    "broadphase.h": "world coordinates past float's exact range",
    "contact.h": "matches the broad phase; momentum and energy kept to 1e-12",
    "search.h": "path costs and keys: sums of many steps compared exactly",
    "hierarchy.h": "path costs, as search.h",
    "sector_field.h": "path costs (tn_sector_field_path), as hierarchy.h",
    "field.h": "path costs (tn_field_path)",
    "io.h": "Moving AI optimal lengths as printed",
    "path.h": "polyline lengths",
    "moves.h": "step costs (1, sqrt 2)",
}
SEARCH_OWN = {"search.c", "jps.c", "jpsplus.c", "search_internal.h"}

problems = []


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


headers = sorted(f for f in os.listdir(INC) if f.endswith(".h"))
for name in headers:
    raw = open(os.path.join(INC, name), encoding="utf-8").read()
    code = strip_comments(raw)
    # 1. definitions
    for m in re.finditer(r"typedef struct (tn_\w+_def) \{(.*?)\} \1;", code, flags=re.S):
        tname, body = m.group(1), m.group(2)
        if "internal_cookie" not in body:
            problems.append(f"{name}: {tname} has no internal_cookie")
        if not re.search(rf"\b{tname}\s+{tname}_default\s*\(\s*void\s*\)", code):
            problems.append(f"{name}: {tname} has no {tname}_default(void)")
    # 2. declarations: TN_API tn_* only; nothing internal
    if re.search(r"\btn__\w+", code):
        problems.append(f"{name}: names an internal tn__ symbol")
    for m in re.finditer(r"TN_API\s+(?:TN_NODISCARD\s+)?[\w\s\*]+?\b(\w+)\s*\(", code):
        if not m.group(1).startswith("tn_"):
            problems.append(f"{name}: exported function {m.group(1)} is not tn_*")
    # 3. double
    if name not in DOUBLE_OK and re.search(r"\bdouble\b", code):
        problems.append(f"{name}: uses double (float tn_vec2 is the convention; add it to "
                        "DOUBLE_OK with the reason in the header if it must)")
    # 4. vocabulary
    if re.search(r"\bthe book\b|\bbook's\b|\(book\b", raw, flags=re.I):
        problems.append(f"{name}: speaks of the book (use the library's words; "
                        "docs/REFERENCE_NAMES.md maps them)")

# 5. include graph of src/
files = {}
for d, _, names in os.walk(SRC):
    for n in names:
        if n.endswith((".c", ".h")):
            rel = os.path.relpath(os.path.join(d, n), SRC)
            text = open(os.path.join(d, n), encoding="utf-8").read()
            incs = []
            for inc in re.findall(r'^#include "([^"]+)"', text, flags=re.M):
                if inc.startswith("tilenav/"):
                    continue
                target = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
                incs.append(target)
                if os.path.basename(target) == "search_internal.h" and n not in SEARCH_OWN:
                    problems.append(f"src/{rel}: includes search_internal.h (the search "
                                    "context is the search's own)")
            files[rel] = incs

state = {}


def visit(f, stack):
    if state.get(f) == 1:
        problems.append("src/ include cycle: " + " -> ".join(stack + [f]))
        return
    if state.get(f) == 2:
        return
    state[f] = 1
    for g in files.get(f, []):
        visit(g, stack + [f])
    state[f] = 2


for f in sorted(files):
    visit(f, [])

for p in problems:
    print("check_api: " + p)
print(f"check_api: {len(headers)} headers, {len(files)} source files, "
      f"{len(problems)} problem(s)")
sys.exit(1 if problems else 0)
