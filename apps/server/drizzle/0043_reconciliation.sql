CREATE TABLE "custody_reports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "custody_reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"coin_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"as_of" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custody_reports_amount_ck" CHECK ("custody_reports"."amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "reconciliations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reconciliations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"coin_id" bigint NOT NULL,
	"as_of" timestamp (3) with time zone NOT NULL,
	"trigger" text NOT NULL,
	"status" text NOT NULL,
	"custody_report_id" bigint,
	"custody" bigint,
	"ledger_custody" bigint NOT NULL,
	"records_net" bigint NOT NULL,
	"in_flight" bigint NOT NULL,
	"difference" bigint,
	"unexplained" bigint,
	"ledger_vs_records" bigint NOT NULL,
	"users_available" bigint NOT NULL,
	"users_held" bigint NOT NULL,
	"house" bigint NOT NULL,
	"fees" bigint NOT NULL,
	"collateral" bigint NOT NULL,
	"explanation" text DEFAULT '' NOT NULL,
	"admin_id" bigint,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reconciliations_status_ck" CHECK ("reconciliations"."status" in ('matched','explained','mismatch','no_report')),
	CONSTRAINT "reconciliations_trigger_ck" CHECK ("reconciliations"."trigger" in ('custody_report','daily','on_demand')),
	CONSTRAINT "reconciliations_custody_ck" CHECK (("reconciliations"."custody" is null) = ("reconciliations"."status" = 'no_report') and ("reconciliations"."custody" is null) = ("reconciliations"."difference" is null) and ("reconciliations"."difference" is null) = ("reconciliations"."unexplained" is null))
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_ck";--> statement-breakpoint
ALTER TABLE "custody_reports" ADD CONSTRAINT "custody_reports_coin_id_coins_id_fk" FOREIGN KEY ("coin_id") REFERENCES "public"."coins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliations" ADD CONSTRAINT "reconciliations_coin_id_coins_id_fk" FOREIGN KEY ("coin_id") REFERENCES "public"."coins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliations" ADD CONSTRAINT "reconciliations_custody_report_id_custody_reports_id_fk" FOREIGN KEY ("custody_report_id") REFERENCES "public"."custody_reports"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "custody_reports_coin_as_of_idx" ON "custody_reports" USING btree ("coin_id","as_of","id");--> statement-breakpoint
CREATE INDEX "reconciliations_as_of_idx" ON "reconciliations" USING btree ("as_of","id");--> statement-breakpoint
CREATE INDEX "reconciliations_coin_idx" ON "reconciliations" USING btree ("coin_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliations_report_uq" ON "reconciliations" USING btree ("custody_report_id") WHERE "reconciliations"."custody_report_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliations_daily_uq" ON "reconciliations" USING btree ("coin_id","as_of") WHERE "reconciliations"."trigger" = 'daily';--> statement-breakpoint
CREATE INDEX "deposits_coin_confirmed_idx" ON "deposits" USING btree ("coin_id","confirmed_at") WHERE "deposits"."status" = 'confirmed';--> statement-breakpoint
CREATE INDEX "withdrawals_coin_completed_idx" ON "withdrawals" USING btree ("coin_id","processed_at") WHERE "withdrawals"."status" = 'completed';--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_ck" CHECK ("notifications"."kind" in ('ticket_new','ticket_waiting','withdrawal_review','withdrawal_second_approval','adjustment_second_approval','resolution_second_approval','market_unresolved','large_deposit','reconciliation_mismatch','mail_failed'));