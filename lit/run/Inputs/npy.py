# A small, independent .npy writer and reader for the sundial-run tests, written from the
# format's definition (magic, version, little-endian HEADER_LEN, an ASCII dict padded with
# spaces to a multiple of 64 bytes and ended by a newline, then the raw data). It needs only
# the standard library, so the tests do not depend on numpy.
#
#   npy.py write OUT DESCR SHAPE VALUES [--fortran] [--version N] [--trailing N] [--truncate N]
#          [--header-len N]
#       SHAPE is "2,3" ("" for a 0-d array); VALUES is a comma list, "iota" (0, 1, 2, ...) or
#       "iota*K+C"; floats for f descrs, integers (two's complement bit patterns allowed) for
#       i/u/V descrs. --trailing appends N zero bytes, --truncate drops the last N data bytes,
#       --header-len writes a wrong HEADER_LEN, --descr-literal TEXT writes TEXT (a Python
#       literal, e.g. a structured dtype) as the header's descr instead of DESCR.
#   npy.py dump FILE
#       Prints "descr=... fortran=... shape=(...)" and then the values, one line, in C order.
#   npy.py raw OUT HEX
#       Writes the bytes given in hex (for files that are not .npy at all).
# Several commands may be given at once, separated by "+" (one process for many files).
import ast
import struct
import sys

CODES = {
    ("f", 2): "e", ("f", 4): "f", ("f", 8): "d",
    ("i", 1): "b", ("i", 2): "h", ("i", 4): "i", ("i", 8): "q",
    ("u", 1): "B", ("u", 2): "H", ("u", 4): "I", ("u", 8): "Q",
    ("V", 1): "B", ("V", 2): "H", ("V", 4): "I",
}


# The ml_dtypes names a header written by hand may carry (raw little-endian bits).
NAMED = {"bfloat16": ("<", "H", "V", 2)}


def layout(descr):
    if descr in NAMED:
        return NAMED[descr]
    order = descr[0] if descr[0] in "<>|=" else "<"
    body = descr[1:] if descr[0] in "<>|=" else descr
    kind, size = body[0], int(body[1:])
    return (">" if order == ">" else "<"), CODES[(kind, size)], kind, size


def values_for(spec, count, kind):
    if spec.startswith("iota"):
        scale, offset = 1, 0
        rest = spec[4:]
        if rest.startswith("*"):
            rest = rest[1:]
            if "+" in rest:
                scale, offset = rest.split("+")
            else:
                scale = rest
        conv = float if kind == "f" else int
        return [conv(scale) * i + conv(offset) for i in range(count)]
    items = [v for v in spec.split(",") if v]
    return [float(v) if kind == "f" else int(v, 0) for v in items]


def header_bytes(descr, shape, fortran, version, header_len, literal=None):
    shape_text = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    descr_text = literal if literal is not None else repr(descr)
    text = "{'descr': %s, 'fortran_order': %s, 'shape': %s, }" % (descr_text, fortran, shape_text)
    prefix = 10 if version == 1 else 12
    total = prefix + len(text) + 1
    text += " " * ((64 - total % 64) % 64) + "\n"
    length = header_len if header_len is not None else len(text)
    size = struct.pack("<H", length) if version == 1 else struct.pack("<I", length)
    return b"\x93NUMPY" + bytes([version, 0]) + size + text.encode("ascii")


def write(args):
    out, descr, shape_text, spec = args[:4]
    opts = args[4:]
    fortran = "--fortran" in opts

    def opt(name, default):
        return int(opts[opts.index(name) + 1]) if name in opts else default

    shape = [int(d) for d in shape_text.split(",") if d]
    count = 1
    for d in shape:
        count *= d
    order, code, kind, size = layout(descr)
    values = values_for(spec, count, kind)
    if fortran:
        # values are given in C order; store them with the first index fastest.
        strides = []
        acc = 1
        for d in reversed(shape):
            strides.insert(0, acc)
            acc *= d
        fvalues = []
        for f in range(count):
            rem, index = f, []
            for d in shape:
                index.append(rem % d)
                rem //= d
            fvalues.append(values[sum(i * s for i, s in zip(index, strides))])
        values = fvalues
    mask = (1 << (8 * size)) - 1
    data = b"".join(
        struct.pack(order + code, (v & mask) if kind in "uV" else v) for v in values
    )
    truncate = opt("--truncate", 0)
    if truncate:
        data = data[:-truncate]
    data += b"\0" * opt("--trailing", 0)
    literal = opts[opts.index("--descr-literal") + 1] if "--descr-literal" in opts else None
    header = header_bytes(
        descr, shape, fortran, opt("--version", 1), opt("--header-len", None), literal
    )
    with open(out, "wb") as f:
        f.write(header + data)


def dump(path):
    raw = open(path, "rb").read()
    assert raw[:6] == b"\x93NUMPY", "not an npy file"
    version = raw[6]
    if version == 1:
        (length,) = struct.unpack("<H", raw[8:10])
        start = 10
    else:
        (length,) = struct.unpack("<I", raw[8:12])
        start = 12
    assert (start + length) % 64 == 0, "header not padded to 64 bytes"
    header = ast.literal_eval(raw[start:start + length].decode("ascii"))
    data = raw[start + length:]
    order, code, kind, size = layout(header["descr"])
    count = 1
    for d in header["shape"]:
        count *= d
    assert len(data) == count * size, f"{len(data)} data bytes for {count} elements"
    values = struct.unpack(order + code * count, data)
    shape = tuple(header["shape"])
    print(f"descr={header['descr']} fortran={header['fortran_order']} shape={shape}")
    print(" ".join(repr(v) for v in values))


def run(argv):
    cmd = argv[0]
    if cmd == "write":
        write(argv[1:])
    elif cmd == "dump":
        dump(argv[1])
    elif cmd == "raw":
        with open(argv[1], "wb") as f:
            f.write(bytes.fromhex(argv[2]))
    else:
        sys.exit(f"unknown command {cmd}")


def main():
    command = []
    for arg in sys.argv[1:] + ["+"]:
        if arg == "+":
            if command:
                run(command)
            command = []
        else:
            command.append(arg)


main()
