CREATE TABLE "idempotency_keys" (
	"key" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" integer,
	"response_body" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp (3) with time zone,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_pk" PRIMARY KEY("key","method","path"),
	CONSTRAINT "idempotency_keys_key_ck" CHECK (length("idempotency_keys"."key") between 1 and 255),
	CONSTRAINT "idempotency_keys_hash_ck" CHECK ("idempotency_keys"."request_hash" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "idempotency_keys_answer_ck" CHECK (("idempotency_keys"."response_status" is null) = ("idempotency_keys"."response_body" is null) and ("idempotency_keys"."response_status" is null) = ("idempotency_keys"."completed_at" is null)),
	CONSTRAINT "idempotency_keys_status_ck" CHECK ("idempotency_keys"."response_status" is null or "idempotency_keys"."response_status" between 200 and 499)
);
--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");