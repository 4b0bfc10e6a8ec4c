"""The Python examples of docs/python.md run (in a folder where `my-ruleset` is a copy
of a shipped ruleset)."""

import os
import shutil

from conftest import ROOT


def test_the_examples_of_docs_python_md_run(tmp_path, frontier_bin):
    text = (ROOT / "docs" / "python.md").read_text()
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    assert blocks, "docs/python.md has Python examples"
    shutil.copytree(ROOT / "rulesets" / "pig", tmp_path / "my-ruleset")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        for block in blocks:
            exec(compile(block, "docs/python.md", "exec"), {})
    finally:
        os.chdir(cwd)
    import subprocess
    run = subprocess.run([frontier_bin, "check", str(tmp_path / "game.trace")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
