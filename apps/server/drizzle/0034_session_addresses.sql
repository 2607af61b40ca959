CREATE TABLE "admin_session_addresses" (
	"session_id" bigint NOT NULL,
	"admin_id" bigint NOT NULL,
	"ip" text NOT NULL,
	"first_seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "admin_session_addresses" ADD CONSTRAINT "admin_session_addresses_session_id_admin_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."admin_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_session_addresses" ADD CONSTRAINT "admin_session_addresses_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "admin_session_addresses_uq" ON "admin_session_addresses" USING btree ("session_id","ip");--> statement-breakpoint
CREATE INDEX "admin_session_addresses_seen_idx" ON "admin_session_addresses" USING btree ("last_seen_at");--> statement-breakpoint
-- The sessions of the last days start with the address they were signed in from.
INSERT INTO "admin_session_addresses" ("session_id", "admin_id", "ip", "first_seen_at", "last_seen_at")
SELECT "id", "admin_id", "ip", "created_at", "last_seen_at" FROM "admin_sessions"
WHERE "ip" <> '' AND "last_seen_at" > now() - interval '30 days';
