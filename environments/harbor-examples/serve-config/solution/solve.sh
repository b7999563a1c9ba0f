#!/bin/bash
cat > /app/service.ini <<'INI'
[server]
host = 127.0.0.1
port = 8765
log_level = warning

[data]
items_csv = /app/data/items.csv

[auth]
api_key = s3cret-key
INI
python3 /app/inventory_service.py --config /app/service.ini --check
nohup python3 /app/inventory_service.py --config /app/service.ini >/app/service.log 2>&1 &
for _ in $(seq 50); do
  python3 -c 'import socket; socket.create_connection(("127.0.0.1", 8765), 1)' 2>/dev/null && break
  sleep 0.1
done
