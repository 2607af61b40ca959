-- An order group's start in ONE round trip (orders/group-commit.ts), in the order the steps had as
-- separate statements, each a statement of its own here (so in READ COMMITTED each reads with a
-- snapshot taken when it starts):
-- 1. the group's Idempotency-Keys claimed in key order (as `runIdempotent` in
--    platform/idempotency.ts claims one: taken over when expired), before any lock;
-- 2. the settlement coin (as exact text values) and the fee rates; nothing more when the coin is missing;
-- 3. the market's row lock, then its advisory lock (the order every book command takes them in);
--    nothing more when the market does not exist;
-- 4. `p_n` ids from the orders' and the ledger transactions' sequences, under the locks (an order's
--    id is its priority in the book);
-- 5. the group's users with their available balance in the coin and their positions in this market
--    (amounts as text, exact; the other numbers are ids and share counts), read after the locks are held, so what the previous holder of the locks
--    committed is seen (one statement with the locks and this read would read with a snapshot
--    taken before waiting for the lock); each user's account and positions by a lookup of its own
--    (LATERAL with LIMIT, so not flattened into a join): the unique indexes answer them whatever the
--    statistics say (as a join, with statistics autovacuum had not refreshed, the planner scanned
--    the whole accounts and positions tables for every group).

-- A row as JSON whose numbers are strings (bigints exact once read in JavaScript); other values as they are.
CREATE OR REPLACE FUNCTION json_row_exact(r jsonb) RETURNS jsonb AS $$
  SELECT jsonb_object_agg(e.key, CASE jsonb_typeof(e.value) WHEN 'number' THEN to_jsonb(e.value #>> '{}') ELSE e.value END) FROM jsonb_each(r) e
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_group_begin(p_claims jsonb, p_ttl interval, p_coin text, p_market bigint, p_lock_space int, p_n int, p_users bigint[])
RETURNS TABLE (o_claimed json, o_coin jsonb, o_taker int, o_maker int, o_market markets, o_ids json, o_users json)
-- Each call's statements planned for its own values (its users, its market): PL/pgSQL would
-- otherwise switch to a generic plan after five calls, and that plan scanned the whole users,
-- ledger_accounts and positions tables for the users' read (seen in the orders bench).
SET plan_cache_mode = force_custom_plan AS $$
DECLARE
  v_coin bigint;
BEGIN
  WITH c AS (
    INSERT INTO idempotency_keys (key, method, path, request_hash, expires_at)
    SELECT v.key, v.method, v.path, v.hash, now() + p_ttl
      FROM jsonb_to_recordset(p_claims) AS v(i int, key text, method text, path text, hash text) ORDER BY v.i
    ON CONFLICT (key, method, path) DO UPDATE
      SET request_hash = excluded.request_hash, response_status = NULL, response_body = NULL, created_at = now(), completed_at = NULL, expires_at = now() + p_ttl
      WHERE idempotency_keys.expires_at <= now()
    RETURNING idempotency_keys.key, idempotency_keys.method, idempotency_keys.path)
  SELECT coalesce(json_agg(json_build_object('key', c.key, 'method', c.method, 'path', c.path)), '[]'::json) INTO o_claimed FROM c;

  SELECT json_row_exact(to_jsonb(c)), c.id INTO o_coin, v_coin FROM coins c WHERE c.symbol = p_coin;
  SELECT s.taker_fee_bps, s.maker_fee_bps INTO o_taker, o_maker FROM site_settings s LIMIT 1;
  IF v_coin IS NULL THEN
    RETURN NEXT;
    RETURN;
  END IF;

  SELECT m.* INTO o_market FROM markets m WHERE m.id = p_market FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RETURN NEXT;
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(p_lock_space, p_market::int);
  SELECT coalesce(json_agg(json_build_array(nextval(pg_get_serial_sequence('orders', 'id')), nextval(pg_get_serial_sequence('ledger_transactions', 'id')))), '[]'::json)
    INTO o_ids FROM generate_series(1, p_n);

  SELECT coalesce(json_agg(json_build_object(
      'id', u.id, 'status', u.status, 'balance', a.balance::text,
      'position', CASE WHEN p.id IS NULL THEN NULL
        ELSE to_jsonb(p) || jsonb_build_object('cost', p.cost::text, 'realized_pnl', p.realized_pnl::text, 'settlement', p.settlement::text) END)), '[]'::json)
    INTO o_users
    FROM unnest(p_users) AS x(id)
    JOIN users u ON u.id = x.id
    LEFT JOIN LATERAL (SELECT a.balance FROM ledger_accounts a WHERE a.user_id = u.id AND a.coin_id = v_coin AND a.bucket = 'available' LIMIT 1) a ON true
    LEFT JOIN LATERAL (SELECT p.* FROM positions p WHERE p.user_id = u.id AND p.market_id = p_market LIMIT 2) p ON true;
  RETURN NEXT;
END;
$$ LANGUAGE plpgsql;
