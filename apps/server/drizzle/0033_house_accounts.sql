ALTER TABLE "users" ADD COLUMN "house" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "users_house_idx" ON "users" USING btree ("username","id") WHERE "users"."house";--> statement-breakpoint
-- The users trade bots already trade as are house accounts.
UPDATE "users" SET "house" = true WHERE "id" IN (SELECT "user_id" FROM "trade_bots");
