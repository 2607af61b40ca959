CREATE TABLE "second_approvals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "second_approvals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"resource" text NOT NULL,
	"record_id" bigint NOT NULL,
	"action" text NOT NULL,
	"restriction" text NOT NULL,
	"right" text NOT NULL,
	"summary" text NOT NULL,
	"link" text NOT NULL,
	"first_admin_id" bigint NOT NULL,
	"first_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"decided_by" bigint,
	"decided_at" timestamp (3) with time zone,
	CONSTRAINT "second_approvals_status_ck" CHECK ("second_approvals"."status" in ('open','approved','rejected'))
);
--> statement-breakpoint
ALTER TABLE "withdrawals" DROP CONSTRAINT "withdrawals_status_ck";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_ck";--> statement-breakpoint
ALTER TABLE "coins" ADD COLUMN "second_approval_threshold" bigint;--> statement-breakpoint
ALTER TABLE "second_approvals" ADD CONSTRAINT "second_approvals_first_admin_id_admins_id_fk" FOREIGN KEY ("first_admin_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "second_approvals" ADD CONSTRAINT "second_approvals_decided_by_admins_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "second_approvals_open_uq" ON "second_approvals" USING btree ("resource","record_id","action") WHERE "second_approvals"."status" = 'open';--> statement-breakpoint
CREATE INDEX "second_approvals_open_idx" ON "second_approvals" USING btree ("first_at","id") WHERE "second_approvals"."status" = 'open';--> statement-breakpoint
CREATE INDEX "second_approvals_record_idx" ON "second_approvals" USING btree ("resource","record_id");--> statement-breakpoint
ALTER TABLE "coins" ADD CONSTRAINT "coins_second_approval_threshold_ck" CHECK ("coins"."second_approval_threshold" > 0);--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_status_ck" CHECK ("withdrawals"."status" in ('requested','awaiting_second_approval','approved','completed','rejected','failed'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_ck" CHECK ("notifications"."kind" in ('ticket_new','ticket_waiting','withdrawal_review','withdrawal_second_approval','market_unresolved','large_deposit','mail_failed'));