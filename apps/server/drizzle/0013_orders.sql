CREATE TABLE "orders" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"market_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"outcome" text NOT NULL,
	"side" text NOT NULL,
	"price" integer NOT NULL,
	"quantity" bigint NOT NULL,
	"filled" bigint DEFAULT 0 NOT NULL,
	"remaining" bigint NOT NULL,
	"time_in_force" text NOT NULL,
	"expires_at" timestamp (3) with time zone,
	"post_only" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"reason" text,
	"coin_id" bigint NOT NULL,
	"held" bigint DEFAULT 0 NOT NULL,
	"fees" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_outcome_ck" CHECK ("orders"."outcome" in ('YES','NO')),
	CONSTRAINT "orders_side_ck" CHECK ("orders"."side" in ('buy','sell')),
	CONSTRAINT "orders_tif_ck" CHECK ("orders"."time_in_force" in ('GTC','IOC','FOK','GTD')),
	CONSTRAINT "orders_status_ck" CHECK ("orders"."status" in ('open','partially_filled','filled','cancelled','expired','rejected')),
	CONSTRAINT "orders_price_ck" CHECK ("orders"."price" between 1 and 99),
	CONSTRAINT "orders_qty_ck" CHECK ("orders"."quantity" > 0 and "orders"."filled" >= 0 and "orders"."remaining" >= 0 and "orders"."filled" + "orders"."remaining" <= "orders"."quantity"),
	CONSTRAINT "orders_gtd_ck" CHECK (("orders"."time_in_force" = 'GTD') = ("orders"."expires_at" is not null)),
	CONSTRAINT "orders_held_ck" CHECK ("orders"."held" >= 0 and ("orders"."status" in ('open','partially_filled') or "orders"."held" = 0) and ("orders"."side" = 'buy' or "orders"."held" = 0)),
	CONSTRAINT "orders_live_ck" CHECK ("orders"."status" not in ('open','partially_filled') or "orders"."remaining" > 0)
);
--> statement-breakpoint
CREATE TABLE "positions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "positions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"market_id" bigint NOT NULL,
	"outcome" text NOT NULL,
	"quantity" bigint DEFAULT 0 NOT NULL,
	"reserved" bigint DEFAULT 0 NOT NULL,
	"cost" bigint DEFAULT 0 NOT NULL,
	"realized_pnl" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"coin_id" bigint NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "positions_outcome_ck" CHECK ("positions"."outcome" in ('YES','NO')),
	CONSTRAINT "positions_status_ck" CHECK ("positions"."status" in ('open','closed')),
	CONSTRAINT "positions_qty_ck" CHECK ("positions"."quantity" >= 0 and "positions"."reserved" >= 0 and "positions"."reserved" <= "positions"."quantity" and "positions"."cost" >= 0)
);
--> statement-breakpoint
CREATE TABLE "trades" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "trades_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"market_id" bigint NOT NULL,
	"maker_order_id" bigint NOT NULL,
	"taker_order_id" bigint NOT NULL,
	"maker_user_id" bigint NOT NULL,
	"taker_user_id" bigint NOT NULL,
	"maker_outcome" text NOT NULL,
	"maker_side" text NOT NULL,
	"taker_outcome" text NOT NULL,
	"taker_side" text NOT NULL,
	"price" integer NOT NULL,
	"quantity" bigint NOT NULL,
	"kind" text NOT NULL,
	"maker_fee" bigint NOT NULL,
	"taker_fee" bigint NOT NULL,
	"coin_id" bigint NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trades_kind_ck" CHECK ("trades"."kind" in ('mint','transfer','merge')),
	CONSTRAINT "trades_price_ck" CHECK ("trades"."price" between 1 and 99),
	CONSTRAINT "trades_qty_ck" CHECK ("trades"."quantity" > 0 and "trades"."maker_fee" >= 0 and "trades"."taker_fee" >= 0)
);
--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_cause_ck";--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "book_token" text;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_maker_order_id_orders_id_fk" FOREIGN KEY ("maker_order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_taker_order_id_orders_id_fk" FOREIGN KEY ("taker_order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_maker_user_id_users_id_fk" FOREIGN KEY ("maker_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_taker_user_id_users_id_fk" FOREIGN KEY ("taker_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_market_live_idx" ON "orders" USING btree ("market_id","id") WHERE "orders"."status" in ('open','partially_filled');--> statement-breakpoint
CREATE INDEX "orders_user_idx" ON "orders" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "orders_market_idx" ON "orders" USING btree ("market_id","id");--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "orders_gtd_idx" ON "orders" USING btree ("expires_at") WHERE "orders"."time_in_force" = 'GTD' and "orders"."status" in ('open','partially_filled');--> statement-breakpoint
CREATE UNIQUE INDEX "positions_user_market_outcome_uq" ON "positions" USING btree ("user_id","market_id","outcome");--> statement-breakpoint
CREATE INDEX "positions_market_idx" ON "positions" USING btree ("market_id","outcome");--> statement-breakpoint
CREATE INDEX "positions_status_idx" ON "positions" USING btree ("status","updated_at","id");--> statement-breakpoint
CREATE INDEX "trades_market_idx" ON "trades" USING btree ("market_id","id");--> statement-breakpoint
CREATE INDEX "trades_maker_user_idx" ON "trades" USING btree ("maker_user_id","id");--> statement-breakpoint
CREATE INDEX "trades_taker_user_idx" ON "trades" USING btree ("taker_user_id","id");--> statement-breakpoint
CREATE INDEX "trades_created_idx" ON "trades" USING btree ("created_at","id");--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_cause_ck" CHECK ("ledger_transactions"."cause" in ('deposit','withdrawal_hold','withdrawal_release','withdrawal_complete','fiat_payment','fiat_refund','fee','trade','order','settlement','pack_purchase','store_sale','adjustment'));