#!/usr/bin/env python3
"""Executes the teaching notebooks headless (tslab kernel) and compares their outputs with the stored ones.

usage: notebooks.py --check NOTEBOOK...   exit 1 and print a diff when an output differs
       notebooks.py --update NOTEBOOK...  store the new outputs in the notebooks

A cell fails the check when it reports an error (an error output or compiler messages on stderr) unless it
is tagged "expect-error" (cells that show a compile error on purpose). Outputs are compared without
execution counts and metadata; the notebooks themselves must not print timings.
Needs Debian's python3-nbclient, python3-nbformat, python3-ipykernel and jupyter-client, and the project's
node_modules (tslab is a dev dependency). The kernel spec is written into a temporary JUPYTER_PATH.
"""
import difflib, json, os, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
kernels = tempfile.mkdtemp(prefix="tablestream-kernels-")
os.makedirs(os.path.join(kernels, "kernels", "tslab"))
with open(os.path.join(kernels, "kernels", "tslab", "kernel.json"), "w") as f:
    json.dump({"argv": [os.path.join(root, "node_modules", ".bin", "tslab"), "kernel", "--config-path", "{connection_file}"],
               "display_name": "TypeScript", "language": "typescript"}, f)
os.environ["JUPYTER_PATH"] = kernels + os.pathsep + os.environ.get("JUPYTER_PATH", "")

import nbformat  # noqa: E402
from nbclient import NotebookClient  # noqa: E402


def normalize(outputs):
    out = []
    for o in outputs:
        o = dict(o)
        o.pop("execution_count", None)
        o.pop("metadata", None)
        o.pop("transient", None)
        if o.get("output_type") == "error":
            o.pop("traceback", None)
        out.append(o)
    return out


def problems(cell):
    if "expect-error" in cell.get("metadata", {}).get("tags", []):
        return []
    bad = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "error":
            bad.append(f"{o.get('ename')}: {o.get('evalue')}")
        elif o.get("output_type") == "stream" and o.get("name") == "stderr":
            bad.append(o.get("text", "").strip())
    return bad


def main():
    mode, paths = sys.argv[1], sys.argv[2:]
    failed = False
    for path in paths:
        stored = nbformat.read(path, as_version=4)
        run = nbformat.read(path, as_version=4)
        NotebookClient(run, timeout=180, kernel_name="tslab", allow_errors=True,
                       resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}}).execute()
        name = os.path.basename(path)
        for i, (a, b) in enumerate(zip(stored.cells, run.cells)):
            if b.cell_type != "code":
                continue
            for p in problems(b):
                failed = True
                print(f"{name}: cell {i + 1} ({b.get('id')}) failed: {p}")
            if mode == "--check":
                want = json.dumps(normalize(a.get("outputs", [])), indent=1, sort_keys=True).splitlines()
                got = json.dumps(normalize(b.get("outputs", [])), indent=1, sort_keys=True).splitlines()
                if want != got:
                    failed = True
                    print(f"{name}: cell {i + 1} ({b.get('id')}) output differs from the stored one:")
                    print("\n".join(difflib.unified_diff(want, got, "stored", "now", lineterm="", n=2)))
        if mode == "--update":
            for c in run.cells:
                if c.cell_type == "code":
                    c.execution_count = None
                    c.outputs = [nbformat.from_dict({**o, "metadata": {}} if "metadata" in o else o) for o in c.outputs]
                    for o in c.outputs:
                        o.pop("execution_count", None) if o.get("output_type") != "execute_result" else None
                        o.pop("transient", None)
            nbformat.write(run, path)
            print(f"{name}: outputs stored")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
