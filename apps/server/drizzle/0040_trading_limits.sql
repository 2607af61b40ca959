ALTER TABLE "series" ADD COLUMN "default_max_position" integer;--> statement-breakpoint
ALTER TABLE "series" ADD COLUMN "default_max_order_size" integer;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "max_position" integer;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "max_order_size" integer;--> statement-breakpoint
ALTER TABLE "series" ADD CONSTRAINT "series_limits_ck" CHECK (coalesce("series"."default_max_position", 1) > 0 and coalesce("series"."default_max_order_size", 1) > 0);--> statement-breakpoint
ALTER TABLE "markets" ADD CONSTRAINT "markets_limits_ck" CHECK (coalesce("markets"."max_position", 1) > 0 and coalesce("markets"."max_order_size", 1) > 0);
--> statement-breakpoint
-- Trading limits (docs/markets.md, "Trading limits"): a market's max position per customer and max
-- order size, taken on create from its series' defaults. Existing markets and series have none.
-- `order_group_begin` (0032) also reads whether each user is a house account (exempt from the
-- limits); the function is otherwise unchanged.
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
      'id', u.id, 'status', u.status, 'house', u.house, 'balance', a.balance::text,
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
