#!/usr/bin/env python3
"""Validate JSON documents against schema/pmctool-report.schema.json: validate_json.py SCHEMA FILE...
Exit 0 when every file is valid; 1 with the errors printed; 77 when python3-jsonschema is missing."""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("SKIP: python3-jsonschema is not installed (setup.sh installs it)")
    sys.exit(77)

schema = json.load(open(sys.argv[1]))
validator = jsonschema.Draft202012Validator(schema)
bad = 0
for path in sys.argv[2:]:
    doc = json.load(open(path))
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    for e in errors[:10]:
        print(f"{path}: /{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}")
    bad += bool(errors)
    if not errors:
        print(f"valid: {path} (kind {doc.get('kind')})")
sys.exit(1 if bad else 0)
