-- The deferred check that each new ledger transaction has postings (0021_settle_fast) runs once per
-- ledger transaction at commit, each time one lookup of `ledger_postings` by `transaction_id`. PL/pgSQL
-- keeps that lookup's plan for the connection's life: planned while the ledger was small (a fresh
-- database, or statistics not yet gathered), it was a sequential scan, and stayed one as the table
-- grew, so every commit read the whole table once per ledger transaction (measured in the orders
-- bench: 5,900 scans reading 159 M rows over 20,000 orders, a group's commit 12-16 ms instead of 3).
-- With sequential scans off for this function its one query always goes through the index; the
-- setting applies only while the function runs.
ALTER FUNCTION ledger_transaction_balanced() SET enable_seqscan = off;
