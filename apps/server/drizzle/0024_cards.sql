CREATE TABLE "card_categories" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "card_categories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"image_url" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_characters" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "card_characters_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"category_id" bigint NOT NULL,
	"tier_id" bigint NOT NULL,
	"image_url" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"attributes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"max_supply" integer NOT NULL,
	"minted_count" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_characters_supply_ck" CHECK ("card_characters"."minted_count" >= 0 and "card_characters"."max_supply" >= 1 and "card_characters"."minted_count" <= "card_characters"."max_supply")
);
--> statement-breakpoint
CREATE TABLE "card_tiers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "card_tiers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"color" text NOT NULL,
	"drop_weight" integer NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_tiers_drop_weight_ck" CHECK ("card_tiers"."drop_weight" >= 0),
	CONSTRAINT "card_tiers_color_ck" CHECK ("card_tiers"."color" ~ '^#[0-9a-f]{6}$')
);
--> statement-breakpoint
CREATE TABLE "user_cards" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "user_cards_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"character_id" bigint NOT NULL,
	"source" text NOT NULL,
	"source_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_cards_source_ck" CHECK ("user_cards"."source" in ('pack_opening', 'reward', 'store_redemption', 'admin_grant'))
);
--> statement-breakpoint
CREATE TABLE "reward_card_cms_blocks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reward_card_cms_blocks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"image_url" text DEFAULT '' NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "card_characters" ADD CONSTRAINT "card_characters_category_id_card_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."card_categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_characters" ADD CONSTRAINT "card_characters_tier_id_card_tiers_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."card_tiers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_cards" ADD CONSTRAINT "user_cards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_cards" ADD CONSTRAINT "user_cards_character_id_card_characters_id_fk" FOREIGN KEY ("character_id") REFERENCES "public"."card_characters"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_categories_name_uq" ON "card_categories" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "card_categories_slug_uq" ON "card_categories" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "card_characters_category_name_uq" ON "card_characters" USING btree ("category_id",lower("name"));--> statement-breakpoint
CREATE INDEX "card_characters_tier_idx" ON "card_characters" USING btree ("tier_id");--> statement-breakpoint
CREATE UNIQUE INDEX "card_tiers_name_uq" ON "card_tiers" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "user_cards_user_idx" ON "user_cards" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "user_cards_character_idx" ON "user_cards" USING btree ("character_id");--> statement-breakpoint
CREATE INDEX "user_cards_created_idx" ON "user_cards" USING btree ("created_at","id");