CREATE TABLE "kill_switches" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "kill_switches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"status" text DEFAULT 'engaged' NOT NULL,
	"halt_markets" boolean NOT NULL,
	"stop_bots" boolean NOT NULL,
	"reason_code" text NOT NULL,
	"reason" text,
	"market_ids" bigint[] DEFAULT '{}' NOT NULL,
	"bot_ids" bigint[] DEFAULT '{}' NOT NULL,
	"engaged_by" bigint,
	"released_by" bigint,
	"released_at" timestamp (3) with time zone,
	"markets_resumed" integer,
	"bots_restarted" integer,
	"not_resumed" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kill_switches_status_ck" CHECK ("kill_switches"."status" in ('engaged','released')),
	CONSTRAINT "kill_switches_what_ck" CHECK ("kill_switches"."halt_markets" or "kill_switches"."stop_bots"),
	CONSTRAINT "kill_switches_released_ck" CHECK (("kill_switches"."status" = 'released') = ("kill_switches"."released_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "resolutions" ADD COLUMN "evidence_urls" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
CREATE INDEX "kill_switches_created_idx" ON "kill_switches" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "deposits_from_address_idx" ON "deposits" USING btree ("from_address","user_id");