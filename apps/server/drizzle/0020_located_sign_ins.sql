ALTER TABLE "admin_sessions" ADD COLUMN "country_code" text;--> statement-breakpoint
ALTER TABLE "admin_sessions" ADD COLUMN "city" text;--> statement-breakpoint
ALTER TABLE "login_history" ADD COLUMN "country_code" text;--> statement-breakpoint
ALTER TABLE "login_history" ADD COLUMN "city" text;