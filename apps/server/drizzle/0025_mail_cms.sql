CREATE TABLE "cms_pages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cms_pages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"meta_title" text DEFAULT '' NOT NULL,
	"meta_description" text DEFAULT '' NOT NULL,
	"published_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cms_pages_slug_unique" UNIQUE("slug"),
	CONSTRAINT "cms_pages_status_ck" CHECK ("cms_pages"."status" in ('draft','published')),
	CONSTRAINT "cms_pages_slug_ck" CHECK ("cms_pages"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$')
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "redacted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "cms_pages_status_idx" ON "cms_pages" USING btree ("status","title");--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_status_ck" CHECK ("mail_outbox"."status" in ('pending','sent','failed','held'));--> statement-breakpoint
-- Mail sent or failed before this migration had its single-use links redacted already.
UPDATE "mail_outbox" SET "redacted" = true WHERE "status" IN ('sent', 'failed');
