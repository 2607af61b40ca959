-- An order group's locked start in ONE round trip (orders/group-commit.ts): the market's row lock,
-- then its advisory lock (the order every book command takes them in), then `p_n` ids from the
-- orders' and the ledger transactions' sequences (an order's id is its priority in the book, so
-- ids are taken under the lock), then the group's users with their available balance in the coin
-- and their positions in this market. The users are read by a statement of their own inside the
-- function, so in READ COMMITTED they are read with a snapshot taken AFTER both locks are held
-- (what the previous group on this market committed is seen), exactly as when it was a second
-- round trip; one statement with the locks and the read would read with a snapshot taken before
-- waiting for the lock. A position comes as an object of text values (bigints exact), keyed by
-- column name. No row when the market does not exist.
CREATE OR REPLACE FUNCTION order_group_lock(p_market bigint, p_lock_space int, p_n int, p_users bigint[], p_coin bigint)
RETURNS TABLE (o_market markets, o_ids json, o_users json) AS $$
BEGIN
  SELECT m.* INTO o_market FROM markets m WHERE m.id = p_market FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(p_lock_space, p_market::int);
  SELECT coalesce(json_agg(json_build_array(nextval(pg_get_serial_sequence('orders', 'id')), nextval(pg_get_serial_sequence('ledger_transactions', 'id')))), '[]'::json)
    INTO o_ids FROM generate_series(1, p_n);
  SELECT coalesce(json_agg(json_build_object(
      'id', u.id, 'status', u.status, 'balance', a.balance::text,
      'position', CASE WHEN p.id IS NULL THEN NULL ELSE (SELECT json_object_agg(e.key, e.value) FROM jsonb_each_text(to_jsonb(p)) e) END)), '[]'::json)
    INTO o_users
    FROM users u
    LEFT JOIN ledger_accounts a ON a.user_id = u.id AND a.coin_id = p_coin AND a.bucket = 'available'
    LEFT JOIN positions p ON p.user_id = u.id AND p.market_id = p_market
    WHERE u.id = ANY(p_users);
  RETURN NEXT;
END;
$$ LANGUAGE plpgsql;
