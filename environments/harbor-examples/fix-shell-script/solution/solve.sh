#!/bin/bash
cat > /app/top_words.sh <<'SCRIPT'
#!/bin/bash
# Prints the N most frequent words of FILE as "COUNT WORD".
file=$1
n=${2:-3}
tr -cs 'A-Za-z' '\n' < "$file" | tr 'A-Z' 'a-z' | grep -v '^$' | sort | uniq -c \
  | awk '{ print $1, $2 }' | sort -k1,1nr -k2,2 | head -n "$n"
SCRIPT
chmod +x /app/top_words.sh
