#!/usr/bin/env python3
"""Writes a container image as a `docker save` archive, which `ctr images import` and Jib's `tar://` base read.

    image.py OUT.tar NAME:TAG [--layer ROOTFS.tar | --dir DIR=/dest ...] [--entrypoint JSON] [--cmd JSON]
             [--env K=V ...] [--user UID:GID] [--workdir DIR]

Each --layer is a tar file taken as one layer as it is (e.g. a rootfs from mmdebstrap); each --dir copies a folder's
contents under /dest, owned by root, into one layer of its own. Layers are stacked in the order given.

Why a script of its own: no Docker daemon runs here, and buildah or umoci would need their own storage and signature
policy set up on every machine for what is a manifest, a config and a list of tars; the format is Docker's image
archive (manifest.json + config + layer tars), read by containerd's importer and by Jib.
"""
import argparse
import hashlib
import io
import json
import os
import shutil
import sys
import tarfile
import tempfile


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def dir_layer(spec, out):
    src, _, dest = spec.partition("=")
    if not os.path.isdir(src) or not dest.startswith("/"):
        sys.exit(f"image.py: --dir {spec}: want an existing folder and an absolute destination, FOLDER=/dest")
    def owned_by_root(ti):
        ti.uid = ti.gid = 0
        ti.uname = ti.gname = "root"
        return ti
    with tarfile.open(out, "w", format=tarfile.PAX_FORMAT) as t:
        # Parent folders of dest first, so the layer unpacks on an empty base too.
        parts = [p for p in dest.strip("/").split("/") if p]
        for i in range(1, len(parts)):
            ti = tarfile.TarInfo("/".join(parts[:i]))
            ti.type, ti.mode = tarfile.DIRTYPE, 0o755
            t.addfile(ti)
        for name in sorted(os.listdir(src)):
            t.add(os.path.join(src, name), arcname="/".join(parts + [name]), filter=owned_by_root)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("ref", help="NAME:TAG as the image will be known, e.g. meshbench.local/pause:3.10")
    ap.add_argument("--layer", action="append", default=[], dest="layers")
    ap.add_argument("--dir", action="append", default=[], dest="dirs")
    ap.add_argument("--entrypoint")
    ap.add_argument("--cmd")
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--user")
    ap.add_argument("--workdir")
    a = ap.parse_args()
    if ":" not in a.ref.rsplit("/", 1)[-1]:
        sys.exit(f"image.py: {a.ref}: the image needs a tag, NAME:TAG")
    work = tempfile.mkdtemp(prefix="image.")
    try:
        layer_files = list(a.layers)
        for i, spec in enumerate(a.dirs):
            f = os.path.join(work, f"dir{i}.tar")
            dir_layer(spec, f)
            layer_files.append(f)
        if not layer_files:
            sys.exit("image.py: no layer given (--layer or --dir)")
        names, diff_ids = [], []
        with tarfile.open(a.out + ".part", "w") as out:
            for f in layer_files:
                digest = sha256_file(f)
                name = f"{digest}/layer.tar"
                out.add(f, arcname=name)
                names.append(name)
                diff_ids.append("sha256:" + digest)
            conf = {"Env": ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"] + a.env}
            if a.entrypoint:
                conf["Entrypoint"] = json.loads(a.entrypoint)
            if a.cmd:
                conf["Cmd"] = json.loads(a.cmd)
            if a.user:
                conf["User"] = a.user
            if a.workdir:
                conf["WorkingDir"] = a.workdir
            config = json.dumps({"architecture": "amd64", "os": "linux", "config": conf,
                                 "rootfs": {"type": "layers", "diff_ids": diff_ids}}, sort_keys=True).encode()
            config_name = hashlib.sha256(config).hexdigest() + ".json"
            manifest = json.dumps([{"Config": config_name, "RepoTags": [a.ref], "Layers": names}]).encode()
            for n, data in ((config_name, config), ("manifest.json", manifest)):
                ti = tarfile.TarInfo(n)
                ti.size = len(data)
                out.addfile(ti, io.BytesIO(data))
        os.replace(a.out + ".part", a.out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if os.path.exists(a.out + ".part"):
            os.remove(a.out + ".part")


if __name__ == "__main__":
    main()
