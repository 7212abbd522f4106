"""The roguelike example of docs/python.md runs as it stands there."""

import re

from conftest import data


def test_roguelike_example_runs(capsys):
    with open(data("docs", "python.md"), encoding="utf-8") as f:
        text = f.read()
    code = re.search(r"<!-- roguelike -->\n```python\n(.*?)```", text, re.S).group(1)
    exec(compile(code, "docs/python.md", "exec"), {"__name__": "docs_example"})
    out = capsys.readouterr().out
    assert "fled to" in out and "hunter's route" in out


def test_docstring_examples():
    import doctest

    import tilenav

    assert doctest.testmod(tilenav, raise_on_error=True).attempted > 0
