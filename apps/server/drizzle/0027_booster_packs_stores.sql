CREATE TABLE "booster_pack_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"cards_per_pack" integer DEFAULT 5 NOT NULL,
	"tier_odds" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"guaranteed_tier_id" bigint,
	"opening_enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_by" bigint,
	CONSTRAINT "booster_pack_settings_single_ck" CHECK ("booster_pack_settings"."id" = 1),
	CONSTRAINT "booster_pack_settings_cards_ck" CHECK ("booster_pack_settings"."cards_per_pack" between 1 and 20)
);
--> statement-breakpoint
CREATE TABLE "booster_packs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "booster_packs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"image_url" text DEFAULT '' NOT NULL,
	"coin_id" bigint NOT NULL,
	"price" bigint NOT NULL,
	"cards_per_pack" integer,
	"odds_override" jsonb,
	"supply" integer NOT NULL,
	"sold" integer DEFAULT 0 NOT NULL,
	"reserved" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booster_packs_status_ck" CHECK ("booster_packs"."status" in ('draft','active','paused','sold_out')),
	CONSTRAINT "booster_packs_price_ck" CHECK ("booster_packs"."price" > 0),
	CONSTRAINT "booster_packs_cards_ck" CHECK ("booster_packs"."cards_per_pack" is null or "booster_packs"."cards_per_pack" between 1 and 20),
	CONSTRAINT "booster_packs_supply_ck" CHECK ("booster_packs"."supply" > 0 and "booster_packs"."sold" >= 0 and "booster_packs"."reserved" >= 0 and "booster_packs"."sold" + "booster_packs"."reserved" <= "booster_packs"."supply")
);
--> statement-breakpoint
CREATE TABLE "pack_openings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pack_openings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"purchase_id" bigint NOT NULL,
	"pack_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"seed_id" bigint NOT NULL,
	"client_seed" text NOT NULL,
	"nonce" integer NOT NULL,
	"odds" jsonb NOT NULL,
	"guaranteed_tier_id" text,
	"pool" jsonb NOT NULL,
	"cards" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pack_purchases" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pack_purchases_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"pack_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"source" text NOT NULL,
	"price" bigint NOT NULL,
	"coin_id" bigint NOT NULL,
	"store_code_id" bigint,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pack_purchases_source_ck" CHECK ("pack_purchases"."source" in ('platform','store_code')),
	CONSTRAINT "pack_purchases_price_ck" CHECK ("pack_purchases"."price" >= 0 and ("pack_purchases"."source" = 'platform') = ("pack_purchases"."price" > 0))
);
--> statement-breakpoint
CREATE TABLE "pack_seeds" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pack_seeds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"server_seed" text NOT NULL,
	"server_seed_hash" text NOT NULL,
	"client_seed" text NOT NULL,
	"nonce" integer DEFAULT 0 NOT NULL,
	"revealed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pack_seeds_seed_ck" CHECK ("pack_seeds"."server_seed" ~ '^[0-9a-f]{64}$' and "pack_seeds"."server_seed_hash" ~ '^[0-9a-f]{64}$' and "pack_seeds"."nonce" >= 0)
);
--> statement-breakpoint
CREATE TABLE "offline_stores" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "offline_stores_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"address" text NOT NULL,
	"city" text NOT NULL,
	"country" text NOT NULL,
	"latitude" numeric(9, 6) NOT NULL,
	"longitude" numeric(9, 6) NOT NULL,
	"contact" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offline_stores_status_ck" CHECK ("offline_stores"."status" in ('active','inactive')),
	CONSTRAINT "offline_stores_coords_ck" CHECK ("offline_stores"."latitude" between -90 and 90 and "offline_stores"."longitude" between -180 and 180),
	CONSTRAINT "offline_stores_country_ck" CHECK ("offline_stores"."country" ~ '^[A-Z]{2}$')
);
--> statement-breakpoint
CREATE TABLE "store_allocations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "store_allocations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"store_id" bigint NOT NULL,
	"pack_id" bigint NOT NULL,
	"quantity" integer NOT NULL,
	"price" bigint NOT NULL,
	"codes_generated" integer DEFAULT 0 NOT NULL,
	"redeemed" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_allocations_ck" CHECK ("store_allocations"."quantity" > 0 and "store_allocations"."price" >= 0 and "store_allocations"."redeemed" >= 0 and "store_allocations"."redeemed" <= "store_allocations"."codes_generated" and "store_allocations"."codes_generated" <= "store_allocations"."quantity")
);
--> statement-breakpoint
CREATE TABLE "store_codes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "store_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"allocation_id" bigint NOT NULL,
	"code_hash" text NOT NULL,
	"hint" text NOT NULL,
	"status" text DEFAULT 'unused' NOT NULL,
	"redeemed_by" bigint,
	"redeemed_at" timestamp (3) with time zone,
	"purchase_id" bigint,
	"created_by" bigint,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_codes_status_ck" CHECK ("store_codes"."status" in ('unused','redeemed') and ("store_codes"."status" = 'redeemed') = ("store_codes"."redeemed_by" is not null and "store_codes"."redeemed_at" is not null and "store_codes"."purchase_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "reward_cards" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reward_cards_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"image_url" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"condition" text NOT NULL,
	"threshold" bigint NOT NULL,
	"period_days" integer,
	"condition_coin_id" bigint,
	"reward_kind" text NOT NULL,
	"reward_coin_id" bigint,
	"reward_amount" bigint,
	"reward_character_id" bigint,
	"supply" integer NOT NULL,
	"granted" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reward_cards_status_ck" CHECK ("reward_cards"."status" in ('active','inactive')),
	CONSTRAINT "reward_cards_supply_ck" CHECK ("reward_cards"."supply" > 0 and "reward_cards"."granted" >= 0 and "reward_cards"."granted" <= "reward_cards"."supply" and "reward_cards"."threshold" > 0),
	CONSTRAINT "reward_cards_condition_ck" CHECK (("reward_cards"."condition" = 'trading_volume' and "reward_cards"."period_days" > 0 and "reward_cards"."condition_coin_id" is null)
      or ("reward_cards"."condition" = 'packs_opened' and "reward_cards"."period_days" is null and "reward_cards"."condition_coin_id" is null)
      or ("reward_cards"."condition" = 'total_deposits' and "reward_cards"."period_days" is null and "reward_cards"."condition_coin_id" is not null)),
	CONSTRAINT "reward_cards_reward_ck" CHECK (("reward_cards"."reward_kind" = 'coin' and "reward_cards"."reward_coin_id" is not null and "reward_cards"."reward_amount" > 0 and "reward_cards"."reward_character_id" is null)
      or ("reward_cards"."reward_kind" = 'card' and "reward_cards"."reward_character_id" is not null and "reward_cards"."reward_coin_id" is null and "reward_cards"."reward_amount" is null))
);
--> statement-breakpoint
CREATE TABLE "reward_grants" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reward_grants_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"reward_card_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"amount" bigint,
	"coin_id" bigint,
	"user_card_id" bigint,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_owner_ck";--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_balance_ck";--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_cause_ck";--> statement-breakpoint
DROP INDEX "ledger_transactions_once_uq";--> statement-breakpoint
ALTER TABLE "booster_pack_settings" ADD CONSTRAINT "booster_pack_settings_guaranteed_tier_id_card_tiers_id_fk" FOREIGN KEY ("guaranteed_tier_id") REFERENCES "public"."card_tiers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booster_packs" ADD CONSTRAINT "booster_packs_coin_id_coins_id_fk" FOREIGN KEY ("coin_id") REFERENCES "public"."coins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pack_openings" ADD CONSTRAINT "pack_openings_purchase_id_pack_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."pack_purchases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pack_openings" ADD CONSTRAINT "pack_openings_pack_id_booster_packs_id_fk" FOREIGN KEY ("pack_id") REFERENCES "public"."booster_packs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pack_openings" ADD CONSTRAINT "pack_openings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pack_openings" ADD CONSTRAINT "pack_openings_seed_id_pack_seeds_id_fk" FOREIGN KEY ("seed_id") REFERENCES "public"."pack_seeds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pack_purchases" ADD CONSTRAINT "pack_purchases_pack_id_booster_packs_id_fk" FOREIGN KEY ("pack_id") REFERENCES "public"."booster_packs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pack_purchases" ADD CONSTRAINT "pack_purchases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pack_purchases" ADD CONSTRAINT "pack_purchases_coin_id_coins_id_fk" FOREIGN KEY ("coin_id") REFERENCES "public"."coins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pack_seeds" ADD CONSTRAINT "pack_seeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_allocations" ADD CONSTRAINT "store_allocations_store_id_offline_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."offline_stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_allocations" ADD CONSTRAINT "store_allocations_pack_id_booster_packs_id_fk" FOREIGN KEY ("pack_id") REFERENCES "public"."booster_packs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_codes" ADD CONSTRAINT "store_codes_allocation_id_store_allocations_id_fk" FOREIGN KEY ("allocation_id") REFERENCES "public"."store_allocations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_codes" ADD CONSTRAINT "store_codes_redeemed_by_users_id_fk" FOREIGN KEY ("redeemed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_cards" ADD CONSTRAINT "reward_cards_condition_coin_id_coins_id_fk" FOREIGN KEY ("condition_coin_id") REFERENCES "public"."coins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_cards" ADD CONSTRAINT "reward_cards_reward_coin_id_coins_id_fk" FOREIGN KEY ("reward_coin_id") REFERENCES "public"."coins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_cards" ADD CONSTRAINT "reward_cards_reward_character_id_card_characters_id_fk" FOREIGN KEY ("reward_character_id") REFERENCES "public"."card_characters"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_grants" ADD CONSTRAINT "reward_grants_reward_card_id_reward_cards_id_fk" FOREIGN KEY ("reward_card_id") REFERENCES "public"."reward_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_grants" ADD CONSTRAINT "reward_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_grants" ADD CONSTRAINT "reward_grants_coin_id_coins_id_fk" FOREIGN KEY ("coin_id") REFERENCES "public"."coins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "booster_packs_name_uq" ON "booster_packs" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "booster_packs_created_idx" ON "booster_packs" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "pack_openings_purchase_uq" ON "pack_openings" USING btree ("purchase_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pack_openings_seed_nonce_uq" ON "pack_openings" USING btree ("seed_id","nonce");--> statement-breakpoint
CREATE INDEX "pack_openings_pack_created_idx" ON "pack_openings" USING btree ("pack_id","created_at","id");--> statement-breakpoint
CREATE INDEX "pack_openings_user_created_idx" ON "pack_openings" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "pack_openings_created_idx" ON "pack_openings" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "pack_purchases_pack_created_idx" ON "pack_purchases" USING btree ("pack_id","created_at","id");--> statement-breakpoint
CREATE INDEX "pack_purchases_user_created_idx" ON "pack_purchases" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "pack_purchases_created_idx" ON "pack_purchases" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "pack_purchases_store_code_uq" ON "pack_purchases" USING btree ("store_code_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pack_seeds_active_uq" ON "pack_seeds" USING btree ("user_id") WHERE "pack_seeds"."revealed_at" is null;--> statement-breakpoint
CREATE INDEX "pack_seeds_user_idx" ON "pack_seeds" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "pack_seeds_hash_uq" ON "pack_seeds" USING btree ("server_seed_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "offline_stores_name_uq" ON "offline_stores" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "store_allocations_store_pack_uq" ON "store_allocations" USING btree ("store_id","pack_id");--> statement-breakpoint
CREATE INDEX "store_allocations_pack_idx" ON "store_allocations" USING btree ("pack_id");--> statement-breakpoint
CREATE INDEX "store_allocations_created_idx" ON "store_allocations" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "store_codes_hash_uq" ON "store_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "store_codes_allocation_created_idx" ON "store_codes" USING btree ("allocation_id","created_at","id");--> statement-breakpoint
CREATE INDEX "store_codes_created_idx" ON "store_codes" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "reward_cards_name_uq" ON "reward_cards" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "reward_grants_card_user_uq" ON "reward_grants" USING btree ("reward_card_id","user_id");--> statement-breakpoint
CREATE INDEX "reward_grants_user_created_idx" ON "reward_grants" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "reward_grants_created_idx" ON "reward_grants" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_once_uq" ON "ledger_transactions" USING btree ("cause","ref_type","ref_id") WHERE "ledger_transactions"."cause" in ('deposit','withdrawal_hold','withdrawal_release','withdrawal_complete','fiat_payment','fiat_refund','settlement','pack_purchase','reward');--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_owner_ck" CHECK (("ledger_accounts"."owner_kind" = 'user' and "ledger_accounts"."user_id" is not null and coalesce("ledger_accounts"."bucket" in ('available','held'), false) and "ledger_accounts"."platform_code" is null)
        or ("ledger_accounts"."owner_kind" = 'platform' and "ledger_accounts"."user_id" is null and "ledger_accounts"."bucket" is null and coalesce("ledger_accounts"."platform_code" in ('hot_wallet','fiat_clearing','adjustments','fees_income','pack_sales','store_sales','market_collateral','rewards'), false)));--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_balance_ck" CHECK ("ledger_accounts"."balance" >= 0 or ("ledger_accounts"."owner_kind" = 'platform' and "ledger_accounts"."platform_code" in ('hot_wallet','fiat_clearing','adjustments','rewards')));--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_cause_ck" CHECK ("ledger_transactions"."cause" in ('deposit','withdrawal_hold','withdrawal_release','withdrawal_complete','fiat_payment','fiat_refund','fee','trade','order','settlement','pack_purchase','store_sale','adjustment','reward'));