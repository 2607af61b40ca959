-- The statement-level check of new postings (0030_postings_check_planned_per_statement), same checks,
-- same errors, in two queries whatever the number of ledger transactions. 0030 looped over the new
-- postings' transactions with two lookups each (each an EXECUTE, planned at every call): an order
-- group of 24 orders writes 24 ledger transactions, and the check took 1.7 ms of the group's 5.5 ms
-- statement (auto_explain during the orders bench), under the market's lock. Now one query finds the
-- first (transaction, coin) in order that breaks a rule, and the error raised is the one the loop
-- raised for it: a missing transaction first, then older postings, then the sum. The two lookups are
-- scalar subqueries, one index probe per (transaction, coin): as NOT EXISTS the planner may hash the
-- whole ledger_transactions table instead (it did, by stale statistics: 2 ms a group, growing).
CREATE OR REPLACE FUNCTION ledger_postings_checked() RETURNS trigger AS $$
DECLARE
  bad record;
  missing bigint;
BEGIN
  -- Every posting names an existing account in its coin.
  EXECUTE 'SELECT count(*) FROM new_postings n
    WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = n.account_id AND a.coin_id = n.coin_id)' INTO missing;
  IF missing > 0 THEN
    EXECUTE 'SELECT n.id, n.transaction_id, n.account_id, n.coin_id FROM new_postings n
      WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = n.account_id AND a.coin_id = n.coin_id) LIMIT 1' INTO bad;
    RAISE EXCEPTION 'ledger_postings_account_coin: posting % of ledger transaction % names account % in coin %: no such account in that coin', bad.id, bad.transaction_id, bad.account_id, bad.coin_id USING ERRCODE = '23503';
  END IF;
  -- Per ledger transaction and coin (first: the transaction's first new posting, whatever its coin):
  -- it names an existing ledger transaction, whose postings come in one statement (none older than
  -- these), and they sum to zero per coin.
  EXECUTE 'SELECT g.transaction_id, g.coin_id, g.total, g.no_transaction, g.older FROM (
      SELECT s.transaction_id, s.coin_id, s.total,
        (SELECT t.id FROM ledger_transactions t WHERE t.id = s.transaction_id) IS NULL AS no_transaction,
        (SELECT p.id FROM ledger_postings p WHERE p.transaction_id = s.transaction_id AND p.id < s.first LIMIT 1) IS NOT NULL AS older
      FROM (SELECT transaction_id, coin_id, sum(amount) AS total, min(min(id)) OVER (PARTITION BY transaction_id) AS first
            FROM new_postings GROUP BY transaction_id, coin_id) s
    ) g
    WHERE g.no_transaction OR g.older OR g.total <> 0
    ORDER BY g.transaction_id, g.coin_id LIMIT 1' INTO bad;
  IF bad.transaction_id IS NULL THEN
    RETURN NULL;
  END IF;
  IF bad.no_transaction THEN
    RAISE EXCEPTION 'ledger_postings_transaction: postings name ledger transaction %, which does not exist', bad.transaction_id USING ERRCODE = '23503';
  END IF;
  IF bad.older THEN
    RAISE EXCEPTION 'ledger transaction % does not balance: it already has postings, and a ledger transaction''s postings are inserted together', bad.transaction_id USING ERRCODE = '23514';
  END IF;
  RAISE EXCEPTION 'ledger transaction % does not balance: coin % sums to %', bad.transaction_id, bad.coin_id, bad.total USING ERRCODE = '23514';
END;
$$ LANGUAGE plpgsql;
