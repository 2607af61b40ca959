CREATE TABLE "resolution_proposals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "resolution_proposals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"market_id" bigint NOT NULL,
	"result" text NOT NULL,
	"source" text NOT NULL,
	"evidence" text NOT NULL,
	"evidence_urls" text[] DEFAULT '{}' NOT NULL,
	"proposed_by" bigint NOT NULL,
	"dispute_ends_at" timestamp (3) with time zone NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"decided_by" bigint,
	"decided_at" timestamp (3) with time zone,
	"reason_code" text,
	"reason" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resolution_proposals_result_ck" CHECK ("resolution_proposals"."result" in ('YES','NO','VOID')),
	CONSTRAINT "resolution_proposals_status_ck" CHECK ("resolution_proposals"."status" in ('open','confirmed','rejected')),
	CONSTRAINT "resolution_proposals_rejected_ck" CHECK (("resolution_proposals"."status" = 'rejected') = ("resolution_proposals"."reason_code" is not null))
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_ck";--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "resolution_two_admins" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "resolution_dispute_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "resolution_proposals" ADD CONSTRAINT "resolution_proposals_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "resolution_proposals_open_uq" ON "resolution_proposals" USING btree ("market_id") WHERE "resolution_proposals"."status" = 'open';--> statement-breakpoint
CREATE INDEX "resolution_proposals_market_idx" ON "resolution_proposals" USING btree ("market_id","id");--> statement-breakpoint
ALTER TABLE "site_settings" ADD CONSTRAINT "site_settings_dispute_ck" CHECK ("site_settings"."resolution_dispute_hours" between 0 and 168);--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_ck" CHECK ("notifications"."kind" in ('ticket_new','ticket_waiting','withdrawal_review','withdrawal_second_approval','adjustment_second_approval','resolution_second_approval','market_unresolved','large_deposit','mail_failed'));