#!/bin/bash
# Prints the N most frequent words of FILE as "COUNT WORD".
file=$1
n=${2:-3}
cat $file | tr ' ' '\n' | sort | uniq -c | sort -n | head -n $n
