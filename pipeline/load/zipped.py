"""A bundle sent as a zip file (offices email them): checked, unpacked into a scratch folder, read as a folder.

A zip is read exactly as the folder it holds. Before a byte is unpacked every member's name
and size is checked: a name that is absolute or climbs out of the folder (`../`), a zip that
would unpack to more than MAX_UNPACKED bytes or that shrinks a member more than MAX_RATIO
times (a "zip bomb"), a member locked with a password, and a file that is not a readable zip
are each refused with one line naming the zip. Unpacking writes only inside a temporary
folder that is removed afterwards, and counts the bytes it actually writes, so a zip whose
directory understates its sizes is stopped too.
"""

from __future__ import annotations

import shutil
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from pipeline.core.errors import InputRejected, PoundError, Problem

MAX_UNPACKED = 2 * 1024**3      # 2 GiB: several years of registers of a whole district, as CSV
MAX_RATIO = 200                 # register CSV compresses about 5-20 times; a bomb thousands of times
MAX_MEMBERS = 20_000
RATIO_FLOOR = 1024**2           # small members may compress very well (a column of zeros): ratio not checked
PASSED_OVER = ("__MACOSX",)     # the resource forks macOS adds to a zip


def shrunk_too_far(info: zipfile.ZipInfo) -> bool:
    """Whether a member unpacks to more than MAX_RATIO times its packed size (past RATIO_FLOOR): a zip bomb."""
    return info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1)


def is_zip(path: Path) -> bool:
    return path.suffix.lower() == ".zip" and path.is_file()


def check_bundle(bundle: Path) -> None:
    """PoundError in one line unless `bundle` is a folder or a zip file (every command given a bundle asks this first)."""
    if not bundle.exists():
        raise PoundError(f"bundle folder {bundle} does not exist")
    if not bundle.is_dir() and not is_zip(bundle):
        raise PoundError(f"{bundle} is not a folder or a .zip file; give the bundle folder (reference/, "
                         "registers/, ledgers/) or a zip of it")


def _refuse(zip_path: Path, why: str) -> InputRejected:
    return InputRejected([Problem(zip_path.name, None, None, None, why)])


def _members(zf: zipfile.ZipFile, zip_path: Path) -> list[tuple[zipfile.ZipInfo, PurePosixPath]]:
    """The members to unpack with their checked relative paths; InputRejected on the first bad one."""
    infos = zf.infolist()
    if len(infos) > MAX_MEMBERS:
        raise _refuse(zip_path, f"holds {len(infos):,} files, more than the {MAX_MEMBERS:,} a bundle may have")
    total = 0
    out = []
    for info in infos:
        name = info.filename.replace("\\", "/")
        rel = PurePosixPath(name)
        if name.startswith("/") or (len(name) > 1 and name[1] == ":") or ".." in rel.parts:
            raise _refuse(zip_path, f"holds a file named {info.filename!r}, which would be unpacked outside the "
                                    "bundle's folder; zip the bundle folder itself and send it again")
        if info.flag_bits & 0x1:
            raise _refuse(zip_path, f"is locked with a password ({info.filename}); send it without a password")
        if rel.parts and rel.parts[0] in PASSED_OVER:
            continue
        total += info.file_size
        if total > MAX_UNPACKED:
            raise _refuse(zip_path, f"would unpack to more than {MAX_UNPACKED // 1024**3} GiB; a bundle is "
                                    "never that large (is it a zip bomb, or the wrong file?)")
        if shrunk_too_far(info):
            raise _refuse(zip_path, f"{info.filename} would unpack {info.file_size // max(info.compress_size, 1):,} "
                                    f"times larger than it is packed (the limit is {MAX_RATIO}); refused as a "
                                    "likely zip bomb")
        if not info.is_dir():
            out.append((info, rel))
    return out


def _unpack(zf: zipfile.ZipFile, zip_path: Path, members, dest: Path) -> None:
    written = 0
    for info, rel in members:
        target = dest.joinpath(*rel.parts)
        if dest.resolve() not in target.resolve().parents:
            raise _refuse(zip_path, f"holds a file named {info.filename!r} outside the bundle's folder")
        target.parent.mkdir(parents=True, exist_ok=True)
        with zf.open(info) as src, target.open("wb") as dst:
            while chunk := src.read(1 << 20):
                written += len(chunk)
                if written > MAX_UNPACKED:
                    raise _refuse(zip_path, f"unpacks to more than {MAX_UNPACKED // 1024**3} GiB; refused")
                dst.write(chunk)


def _root(folder: Path) -> Path:
    """The bundle folder inside what was unpacked: the zip's own top level, or its one folder."""
    if any((folder / d).is_dir() for d in ("reference", "registers", "ledgers")):
        return folder
    inner = [p for p in folder.iterdir() if not p.name.startswith(".") and p.name not in PASSED_OVER]
    if len(inner) == 1 and inner[0].is_dir():
        return inner[0]
    return folder


@contextmanager
def unpacked(bundle: Path) -> Iterator[Path]:
    """The bundle as a folder: itself, or a zip's content unpacked into a scratch folder removed on exit."""
    if not is_zip(bundle):
        yield bundle
        return
    scratch = Path(tempfile.mkdtemp(prefix="pound-zip-"))
    try:
        try:
            with zipfile.ZipFile(bundle) as zf:
                _unpack(zf, bundle, _members(zf, bundle), scratch)
        except zipfile.BadZipFile as exc:
            raise _refuse(bundle, f"is not a readable zip file ({exc}); zip the bundle folder again "
                                  "and send it again") from None
        except (zipfile.LargeZipFile, NotImplementedError, RuntimeError, EOFError, zlib.error) as exc:
            # RuntimeError: a password; NotImplementedError: a compression method Python cannot read
            raise _refuse(bundle, f"cannot be unpacked ({exc.__class__.__name__}: {exc}); zip the bundle "
                                  "folder again with the ordinary 'Send to > Compressed folder'") from None
        yield _root(scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
