"""The test command's own machinery: what keeps it on two workers and under its time budget."""
import pytest

pytestmark = pytest.mark.xdist_group("ci")


def test_xdist_groups_keep_their_tests_on_one_worker(request):
    """``--dist loadgroup`` sends every test marked ``xdist_group("book")`` to one worker, so the
    book is built once; pytest-xdist does it by appending ``@<group>`` to the node id.  pytest 9.2
    keeps node ids where xdist 3.8 cannot change them: the groups were silently split and the
    book built and the PDF typeset twice (requirements.txt pins pytest below 9.2)."""
    if not getattr(request.config.option, "loadgroup", False):      # set on the workers by xdist
        pytest.skip("not run with -n N --dist loadgroup (the README's test command uses it)")
    assert request.node.nodeid.endswith("@ci"), (
        f"node id {request.node.nodeid!r} has no '@ci' group suffix: pytest-xdist's loadgroup does not "
        "work with this pytest (pin pytest below 9.2 in requirements.txt)")


def test_importing_nbformat_compiles_no_grammar():
    """Every pytest process, each Sphinx build and JupyterLab import nbformat, hence jsonschema.
    jsonschema 4.25 imports ``rfc3987_syntax`` when it is installed (its ``format-nongpl`` extra,
    which jupyter-events asks for), and that module compiles a Lark grammar on import: 3.5 s of CPU
    in each of some fifteen processes of the test command.  requirements.txt keeps jsonschema below
    4.25, which neither installs nor imports it."""
    import subprocess
    import sys

    code = "import sys, nbformat, jsonschema; print(sorted({'lark', 'rfc3987_syntax'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", (
        f"importing nbformat loaded {out.strip()}: keep jsonschema below 4.25 (requirements.txt)")
