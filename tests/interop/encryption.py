#!/usr/bin/env python3
"""encryption.py: the pyarrow side of tests/interop_encryption.rs (Parquet modular encryption).

  encryption.py write DIR
      pyarrow writes one table, DIR/plain.parquet unencrypted, and encrypted copies of it:
      uniform encryption with a plain key (create_encryption_properties) for both algorithms,
      both footer modes and no / stored / supplied AAD prefix (DIR/uniform-*.parquet), and
      per-column keys through CryptoFactory with the test KMS below, single and double
      wrapping, both footer modes (DIR/kms-*.parquet). Prints one JSON line per encrypted file:
      {"file", "key" (hex, uniform files), "aad_prefix" (when it must be supplied), "kms"}.

  encryption.py read FILE EXPECTED_JSONL (--key HEX [--aad-prefix TEXT] | --kms)
      pyarrow reads FILE (written by parket) with a plain footer key or through CryptoFactory
      with the test KMS, and compares its rows with EXPECTED_JSONL value by value (floats bit
      for bit). Prints "ok", or the first difference and exit 1.

The test KMS is parquet-java's and pyarrow's in-memory test KMS: a key is wrapped by AES-GCM
under the master key with the master key's id as AAD, stored as base64(nonce | ciphertext |
tag); parket's `InMemoryKms` does the same. Master keys: kf (footer), kc1 (column b), kc2
(column c) as below.
"""
import base64
import json
import math
import os
import struct
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pyarrow.parquet.encryption as pe
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

MASTER_KEYS = {
    "kf": "0123456789012345",
    "kc1": "1234567890123450",
    "kc2": "1234567890123451",
}
UNIFORM_KEY = b"0123456789012345"
AAD_PREFIX = "tester"


class TestKms(pe.KmsClient):
    def __init__(self, config):
        pe.KmsClient.__init__(self)
        self.keys = {k: v.encode() for k, v in config.custom_kms_conf.items()}

    def wrap_key(self, key_bytes, master_key_identifier):
        nonce = os.urandom(12)
        sealed = AESGCM(self.keys[master_key_identifier]).encrypt(
            nonce, key_bytes, master_key_identifier.encode())
        return base64.b64encode(nonce + sealed)

    def unwrap_key(self, wrapped_key, master_key_identifier):
        raw = base64.b64decode(wrapped_key)
        return AESGCM(self.keys[master_key_identifier]).decrypt(
            raw[:12], raw[12:], master_key_identifier.encode())


def kms_config():
    return pe.KmsConnectionConfig(custom_kms_conf=MASTER_KEYS)


def crypto_factory():
    return pe.CryptoFactory(lambda config: TestKms(config))


def table():
    n = 3000
    a = list(range(n))
    b = [None if i % 7 == 3 else "s%d" % (i % 50) for i in range(n)]
    specials = [-0.0, 0.0, 1e308, -1e-308, 5e-324, 1.5]
    c = [None if i % 11 == 5 else specials[i % len(specials)] * (1 + i // 100) for i in range(n)]
    d = [None if i % 5 == 0 else [i, -i] for i in range(n)]
    return pa.table({
        "a": pa.array(a, pa.int64()),
        "b": pa.array(b, pa.string()),
        "c": pa.array(c, pa.float64()),
        "d": pa.array(d, pa.list_(pa.int32())),
    })


def write(out):
    t = table()
    # Small pages and row groups: page ordinals and row group ordinals above 0 in the AADs.
    opts = dict(data_page_size=2048, row_group_size=1000, write_page_index=True,
                write_page_checksum=True)
    pq.write_table(t, os.path.join(out, "plain.parquet"), **opts)
    for alg in ("AES_GCM_V1", "AES_GCM_CTR_V1"):
        for plaintext_footer in (False, True):
            for aad in ("none", "stored", "supplied"):
                kw = {}
                if aad != "none":
                    kw = dict(aad_prefix=AAD_PREFIX.encode(), store_aad_prefix=aad == "stored")
                props = pe.create_encryption_properties(
                    UNIFORM_KEY, encryption_algorithm=alg, plaintext_footer=plaintext_footer,
                    **kw)
                name = "uniform-%s-%s-%s.parquet" % (
                    alg.lower(), "plainfooter" if plaintext_footer else "encfooter", aad)
                pq.write_table(t, os.path.join(out, name), encryption_properties=props, **opts)
                line = {"file": name, "key": UNIFORM_KEY.hex(), "kms": False}
                if aad == "supplied":
                    line["aad_prefix"] = AAD_PREFIX
                print(json.dumps(line))
    for double in (False, True):
        for plaintext_footer in (False, True):
            for alg in ("AES_GCM_V1", "AES_GCM_CTR_V1"):
                config = pe.EncryptionConfiguration(
                    footer_key="kf", column_keys={"kc1": ["b"], "kc2": ["c"]},
                    encryption_algorithm=alg, plaintext_footer=plaintext_footer,
                    double_wrapping=double, internal_key_material=True)
                props = crypto_factory().file_encryption_properties(kms_config(), config)
                name = "kms-%s-%s-%s.parquet" % (
                    "double" if double else "single",
                    "plainfooter" if plaintext_footer else "encfooter", alg.lower())
                pq.write_table(t, os.path.join(out, name), encryption_properties=props, **opts)
                print(json.dumps({"file": name, "kms": True}))


def same(x, y):
    """Values equal, floats bit for bit."""
    if isinstance(x, float) or isinstance(y, float):
        return (isinstance(x, float) and isinstance(y, float)
                and struct.pack("<d", x) == struct.pack("<d", y))
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(same(p, q) for p, q in zip(x, y))
    if isinstance(x, dict) and isinstance(y, dict):
        return list(x) == list(y) and all(same(x[k], y[k]) for k in x)
    return type(x) is type(y) and x == y


def json_value(v):
    # parket's cat --json / write input: floats that JSON cannot hold are strings.
    if isinstance(v, str) and v in ("NaN", "Infinity", "-Infinity"):
        return float(v.replace("Infinity", "inf"))
    return v


def read(path, expected, key, aad_prefix, kms):
    if kms:
        props = crypto_factory().file_decryption_properties(
            kms_config(), pe.DecryptionConfiguration())
    else:
        kw = {} if aad_prefix is None else {"aad_prefix": aad_prefix.encode()}
        props = pe.create_decryption_properties(bytes.fromhex(key), **kw)
    rows = pq.read_table(path, decryption_properties=props).to_pylist()
    with open(expected, encoding="utf-8") as f:
        want = [json.loads(line) for line in f if line.strip()]
    if len(rows) != len(want):
        return "pyarrow read %d rows, expected %d" % (len(rows), len(want))
    for i, (got, w) in enumerate(zip(rows, want)):
        w = {k: ([json_value(e) for e in v] if isinstance(v, list) else json_value(v))
             for k, v in w.items()}
        for k in w:
            if isinstance(w[k], int) and isinstance(got.get(k), float):
                w[k] = float(w[k])
        if not same(got, w):
            return "row %d: pyarrow read %r, expected %r" % (i, got, w)
    return None


def main(argv):
    if argv[:1] == ["write"] and len(argv) == 2:
        write(argv[1])
        return 0
    if argv[:1] == ["read"] and len(argv) >= 3:
        path, expected, rest = argv[1], argv[2], argv[3:]
        key = aad = None
        kms = False
        while rest:
            flag = rest.pop(0)
            if flag == "--key":
                key = rest.pop(0)
            elif flag == "--aad-prefix":
                aad = rest.pop(0)
            elif flag == "--kms":
                kms = True
            else:
                raise SystemExit("unknown option %s" % flag)
        try:
            msg = read(path, expected, key, aad, kms)
        except Exception as e:  # noqa: BLE001: any pyarrow failure is the answer
            msg = "pyarrow failed: %s: %s" % (type(e).__name__, e)
        if msg:
            print(msg, file=sys.stderr)
            return 1
        print("ok")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
