ALTER TABLE "admins" ADD COLUMN "created_by" bigint;--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "disabled_by" bigint;--> statement-breakpoint
ALTER TABLE "admins" ADD CONSTRAINT "admins_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admins" ADD CONSTRAINT "admins_disabled_by_admins_id_fk" FOREIGN KEY ("disabled_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Accounts created before the tree existed: their creator is the admin the audit log names, if any.
UPDATE "admins" a SET "created_by" = l."admin_id"
  FROM "audit_log" l
  WHERE l."action" = 'create' AND l."resource" = 'sub-admins' AND l."record_id" = a."id"::text
    AND l."admin_id" IS NOT NULL AND l."admin_id" <> a."id"
    AND EXISTS (SELECT 1 FROM "admins" c WHERE c."id" = l."admin_id");
--> statement-breakpoint
-- Mail kept for want of SMTP is now "held" (and no longer printed in the log).
UPDATE "mail_outbox" SET "status" = 'held' WHERE "status" = 'logged';
