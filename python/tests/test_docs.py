"""The roguelike example of docs/python.md runs as it stands there."""

import re

from conftest import data


def test_roguelike_example_runs(capsys):
    with open(data("docs", "python.md"), encoding="utf-8") as f:
        text = f.read()
    code = re.search(r"<!-- roguelike -->\n```python\n(.*?)```", text, re.S).group(1)
    scope = {"__name__": "docs_example"}
    exec(compile(code, "docs/python.md", "exec"), scope)
    out = capsys.readouterr().out
    assert "fled to" in out and "hunter's route" in out
    # the next section's block goes on with the example's level
    crowds = re.search(r"## Flow fields and crowds\n\n```python\n(.*?)```", text, re.S).group(1)
    exec(compile(crowds, "docs/python.md", "exec"), scope)
    assert scope["crowd"].steps == 60 and scope["crowd"].positions[0, 0] > 48
    # and the arrival snippet removes the agent once it is at the field's goal
    removal = re.search(r"reads it after each step:\n\n```python\n(.*?)```", text,
                        re.S).group(1)
    crowd = scope["crowd"]
    exec(compile(removal, "docs/python.md", "exec"), scope)
    assert len(crowd) == 1 and not crowd.arrived.any()
    for _ in range(1200):
        crowd.step()
        if crowd.arrived.any():
            break
    assert crowd.arrived.tolist() == [True]
    exec(compile(removal, "docs/python.md", "exec"), scope)
    assert len(crowd) == 0


def test_docstring_examples():
    import doctest

    import tilenav

    assert doctest.testmod(tilenav, raise_on_error=True).attempted > 0


def test_units_example_runs():
    with open(data("docs", "python.md"), encoding="utf-8") as f:
        text = f.read()
    code = re.search(r"## Units bigger than one cell\n.*?```python\n(.*?)```", text,
                     re.S).group(1)
    scope = {"__name__": "docs_example"}
    exec(compile(code, "docs/python.md", "exec"), scope)
    tank, m = scope["tank"], scope["m"]
    assert tuple(tank[0]) == (1, 1) and tuple(tank[-1]) == (40, 30)
    assert all(m.fits(c, 2) for c in tank)
    assert len(scope["crowd"]) == 1
    # the regions section goes on with the same map
    code = re.search(r"## Regions: \"no path\" at once\n.*?```python\n(.*?)```", text,
                     re.S).group(1)
    exec(compile(code, "docs/python.md", "exec"), scope)
    assert scope["rg"].connected((1, 1), (40, 30)) and scope["rg"].count(1) == 1
    # and the edits section with the same map and field
    code = re.search(r"## Maps that change\n.*?```python\n(.*?)```", text, re.S).group(1)
    exec(compile(code, "docs/python.md", "exec"), scope)
    assert scope["m"].passable[10:12, 20:22].all()


def test_readme_install_commands_are_the_documented_ones():
    """README's Python install, followed literally, is docs/python.md's by-hand install: a
    venv of Debian's interpreter that sees Debian's NumPy, cffi and wheel
    (--system-site-packages; without it pip fails with "invalid command 'bdist_wheel'")."""
    with open(data("README.md"), encoding="utf-8") as f:
        readme = f.read()
    with open(data("docs", "python.md"), encoding="utf-8") as f:
        guide = f.read()
    by_hand = re.search(r"or by hand, from the repository root.*?```sh\n(.*?)```", guide,
                        re.S).group(1)
    block = re.search(r"From Python: .*?```sh\n(.*?)```", readme, re.S).group(1)
    commands = [line for line in block.splitlines() if line.strip()]
    assert commands and all(cmd in by_hand for cmd in commands), commands
    assert any("-m venv --system-site-packages" in cmd for cmd in commands)
    assert any("pip install --no-build-isolation ./python" in cmd for cmd in commands)


def test_docstrings_say_what_the_calls_do():
    import inspect

    import tilenav

    # paths() has no extra layer, and says so
    assert "extra" not in inspect.signature(tilenav.Map.paths).parameters
    assert "no ``extra``" in " ".join(tilenav.Map.paths.__doc__.split())
    # nearest_path() raises when no goal is left, as the tests of test_errors.py check
    doc = " ".join(tilenav.Map.nearest_path.__doc__.split())
    assert "OutOfMapError" in doc and "BlockedError" in doc


def test_api_table_lists_every_path_option():
    import inspect

    import tilenav

    with open(data("docs", "python.md"), encoding="utf-8") as f:
        row = next(line for line in f if line.startswith("| `map.path(start, goal,"))
    for name in inspect.signature(tilenav.Map.path).parameters:
        if name != "self":
            assert f"{name}" in row.split("|")[1], name


def test_javascript_differences_are_listed():
    """docs/python.md's "Python and JavaScript" section names the features only one side has
    (the stranger found only two defaults listed)."""
    with open(data("docs", "python.md"), encoding="utf-8") as f:
        text = f.read()
    section = re.search(r"\n## Python and JavaScript\n(.*?)\n## ", text, re.S).group(1)
    for word in ("regions: false", "BlockedError", "closest", "max_expansions", "extra",
                 "distances", "begin", "wouldWallOff", "report", "update()"):
        assert word in section, word


def test_install_commands_paste_as_root_and_say_when_to_add_sudo():
    """The guide said "as root, without sudo" above a command that began with sudo."""
    with open(data("docs", "python.md"), encoding="utf-8") as f:
        guide = f.read()
    intro, block = re.search(r"or by hand, from the repository root(.*?)```sh\n(.*?)```", guide,
                             re.S).groups()
    assert "sudo" not in block and block.startswith("apt-get install ")
    assert "prefix it with `sudo`" in " ".join(intro.split())


def test_shared_dir_variable_is_documented_and_named_when_skipping():
    import test_movingai

    with open(data("docs", "python.md"), encoding="utf-8") as f:
        assert "`TILENAV_SHARED_DIR`" in f.read()
    assert "TILENAV_SHARED_DIR" in test_movingai.pytestmark.kwargs["reason"]


def test_every_public_method_and_property_has_a_docstring():
    import inspect

    import tilenav

    missing = []
    for name in tilenav.__all__:
        cls = getattr(tilenav, name)
        if not inspect.isclass(cls) or issubclass(cls, BaseException):
            continue
        for attr, value in vars(cls).items():
            func = value.fget if isinstance(value, property) else getattr(value, "__func__", value)
            if not attr.startswith("_") and inspect.isfunction(func) and not func.__doc__:
                missing.append(f"{name}.{attr}")
    assert not missing  # Map.closed, FlowField.closed and Crowd.closed had none
