#!/bin/bash
mkdir -p /app/clean
python3 - <<'PY'
import csv, io, re

text = open("/app/export/orders.csv", encoding="utf-8-sig").read().replace("\r\n", "\n")
orders = {}
for line in text.split("\n"):
    if not line.strip():
        continue
    delimiter = ";" if line.count(";") > line.count(",") - line.count('"') and ";" in line else ","
    fields = next(csv.reader(io.StringIO(line), delimiter=delimiter))
    if len(fields) < 4 or fields[0] == "id":
        continue
    if not re.fullmatch(r"[1-9][0-9]*", fields[0].strip()):
        continue
    order_id = int(fields[0])
    if order_id in orders:
        continue
    amount = float(re.sub(r"[$,\s]", "", fields[2]))
    orders[order_id] = (fields[1].strip(), f"{amount:.2f}", fields[3].strip())

with open("/app/clean/orders.csv", "w", newline="") as out:
    out.write("id,customer,amount,date\n")
    for order_id in sorted(orders):
        customer, amount, date = orders[order_id]
        out.write(f"{order_id},{customer},{amount},{date}\n")
PY
