CREATE TABLE "trade_bot_markets" (
	"bot_id" bigint NOT NULL,
	"market_id" bigint NOT NULL,
	CONSTRAINT "trade_bot_markets_bot_id_market_id_pk" PRIMARY KEY("bot_id","market_id")
);
--> statement-breakpoint
CREATE TABLE "trade_bots" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "trade_bots_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"user_id" bigint NOT NULL,
	"all_open_markets" boolean DEFAULT false NOT NULL,
	"fair_source" text DEFAULT 'last' NOT NULL,
	"fair_price" integer DEFAULT 50 NOT NULL,
	"spread" integer NOT NULL,
	"size" integer NOT NULL,
	"levels" integer NOT NULL,
	"max_position" integer NOT NULL,
	"refresh_seconds" integer NOT NULL,
	"status" text DEFAULT 'stopped' NOT NULL,
	"started_at" timestamp (3) with time zone,
	"last_run_at" timestamp (3) with time zone,
	"next_run_at" timestamp (3) with time zone,
	"last_run_summary" text,
	"last_error" text,
	"last_error_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_bots_status_ck" CHECK ("trade_bots"."status" in ('stopped','running')),
	CONSTRAINT "trade_bots_fair_ck" CHECK ("trade_bots"."fair_source" in ('last','fixed') and "trade_bots"."fair_price" between 1 and 99),
	CONSTRAINT "trade_bots_params_ck" CHECK ("trade_bots"."spread" between 1 and 98 and "trade_bots"."size" > 0 and "trade_bots"."levels" between 1 and 10 and "trade_bots"."max_position" > 0 and "trade_bots"."refresh_seconds" > 0)
);
--> statement-breakpoint
ALTER TABLE "trade_bot_markets" ADD CONSTRAINT "trade_bot_markets_bot_id_trade_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."trade_bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_bot_markets" ADD CONSTRAINT "trade_bot_markets_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_bots" ADD CONSTRAINT "trade_bots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trade_bot_markets_market_idx" ON "trade_bot_markets" USING btree ("market_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trade_bots_name_uq" ON "trade_bots" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "trade_bots_user_uq" ON "trade_bots" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "trade_bots_due_idx" ON "trade_bots" USING btree ("next_run_at") WHERE "trade_bots"."status" = 'running';