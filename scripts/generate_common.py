"""What every part of scripts/generate.py shares: the limits read from the crate, and the
writers of a generated file (formatted by rustfmt)."""
import re
import subprocess

MAX = int(re.search(r"pub const MAX_TYPED_RANK: usize = (\d+);", open("src/values/shape.rs").read()).group(1))
# The largest size every value up to which `S<N>` names by itself (see `SIZE_TABLE_MAX`).
TABLE = int(re.search(r"pub const SIZE_TABLE_MAX: usize = ([\d_]+);", open("src/typed/size.rs").read()).group(1).replace("_", ""))
INLINE = int(re.search(r"pub const INLINE_MAX: usize = (\d+);", open("src/typed/buffer.rs").read()).group(1))


def write_typed(name, text):
    """Writes src/typed/generated/NAME.rs; its paths to the type level's modules are absolute
    (`crate::typed::…`), as the folder sits one level below them."""
    write_formatted(f"src/typed/generated/{name}.rs", text.replace("super::", "crate::typed::"))


def write_formatted(path, text):
    """Writes `text` to `path` as rustfmt formats it (edition 2021)."""
    out = subprocess.run(["rustfmt", "--edition", "2021", "--emit", "stdout", "-q"],
                         input=text, capture_output=True, text=True, check=True).stdout
    open(path, "w").write(out)
