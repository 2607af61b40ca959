-- The statement-level check of new postings (0021_settle_fast), cheaper on a big statement (a
-- settlement inserts one posting per holder: 100 k in one INSERT), same checks, same errors:
-- * the accounts: one anti join counting postings whose account is not of their coin, so the planner
--   may hash the accounts for a big statement (it probed them one posting at a time behind a LIMIT 1,
--   most of the check's time); the offending posting is looked up only when there is one;
-- * the ledger transactions: ONE pass over the new postings groups them per transaction and coin
--   (its sum, and the transaction's first new id), then each group (one per statement for postTransaction and postCreditsFrom) is
--   checked: its transaction exists, it has no older postings, it sums to zero (three passes before).
CREATE OR REPLACE FUNCTION ledger_postings_checked() RETURNS trigger AS $$
DECLARE
  bad record;
  missing bigint;
BEGIN
  -- Every posting names an existing account in its coin.
  SELECT count(*) INTO missing FROM new_postings n
    WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = n.account_id AND a.coin_id = n.coin_id);
  IF missing > 0 THEN
    SELECT n.id, n.transaction_id, n.account_id, n.coin_id INTO bad FROM new_postings n
      WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = n.account_id AND a.coin_id = n.coin_id) LIMIT 1;
    RAISE EXCEPTION 'ledger_postings_account_coin: posting % of ledger transaction % names account % in coin %: no such account in that coin', bad.id, bad.transaction_id, bad.account_id, bad.coin_id USING ERRCODE = '23503';
  END IF;
  -- (first: the transaction's first new posting, whatever its coin)
  FOR bad IN SELECT transaction_id, coin_id, sum(amount) AS total, min(min(id)) OVER (PARTITION BY transaction_id) AS first
      FROM new_postings GROUP BY transaction_id, coin_id ORDER BY transaction_id, coin_id LOOP
    -- It names an existing ledger transaction ...
    IF NOT EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.id = bad.transaction_id) THEN
      RAISE EXCEPTION 'ledger_postings_transaction: postings name ledger transaction %, which does not exist', bad.transaction_id USING ERRCODE = '23503';
    END IF;
    -- ... whose postings come in one statement: none older than these ...
    IF EXISTS (SELECT 1 FROM ledger_postings p WHERE p.transaction_id = bad.transaction_id AND p.id < bad.first) THEN
      RAISE EXCEPTION 'ledger transaction % does not balance: it already has postings, and a ledger transaction''s postings are inserted together', bad.transaction_id USING ERRCODE = '23514';
    END IF;
    -- ... and they sum to zero per coin.
    IF bad.total <> 0 THEN
      RAISE EXCEPTION 'ledger transaction % does not balance: coin % sums to %', bad.transaction_id, bad.coin_id, bad.total USING ERRCODE = '23514';
    END IF;
  END LOOP;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
