CREATE TABLE "series" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "series_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"ticker" text NOT NULL,
	"title" text NOT NULL,
	"frequency" text NOT NULL,
	"category" text NOT NULL,
	"settlement_source" text NOT NULL,
	"settlement_url" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "series_ticker_ck" CHECK ("series"."ticker" = upper("series"."ticker")),
	CONSTRAINT "series_frequency_ck" CHECK ("series"."frequency" in ('one_off','daily','weekly','monthly','quarterly','yearly')),
	CONSTRAINT "series_category_ck" CHECK ("series"."category" in ('Crypto','Economics','Financials','Politics','Sports','Climate','Science','Entertainment','World')),
	CONSTRAINT "series_status_ck" CHECK ("series"."status" in ('active','inactive'))
);
--> statement-breakpoint
CREATE TABLE "series_tags" (
	"series_id" bigint NOT NULL,
	"tag_id" bigint NOT NULL,
	CONSTRAINT "series_tags_series_id_tag_id_pk" PRIMARY KEY("series_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "event_tags" (
	"event_id" bigint NOT NULL,
	"tag_id" bigint NOT NULL,
	CONSTRAINT "event_tags_event_id_tag_id_pk" PRIMARY KEY("event_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"series_id" bigint,
	"ticker" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"image_url" text DEFAULT '' NOT NULL,
	"open_time" timestamp (3) with time zone NOT NULL,
	"close_time" timestamp (3) with time zone NOT NULL,
	"expected_resolution_time" timestamp (3) with time zone NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_ticker_ck" CHECK ("events"."ticker" = upper("events"."ticker")),
	CONSTRAINT "events_times_ck" CHECK ("events"."open_time" < "events"."close_time" and "events"."close_time" <= "events"."expected_resolution_time"),
	CONSTRAINT "events_status_ck" CHECK ("events"."status" in ('draft','open','closed','settled'))
);
--> statement-breakpoint
CREATE TABLE "markets" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "markets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"event_id" bigint NOT NULL,
	"ticker" text NOT NULL,
	"title" text NOT NULL,
	"rules" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"last_price" integer,
	"volume" bigint DEFAULT 0 NOT NULL,
	"open_interest" bigint DEFAULT 0 NOT NULL,
	"result" text,
	"closes_at" timestamp (3) with time zone NOT NULL,
	"opened_at" timestamp (3) with time zone,
	"closed_at" timestamp (3) with time zone,
	"resolved_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "markets_ticker_ck" CHECK ("markets"."ticker" = upper("markets"."ticker")),
	CONSTRAINT "markets_status_ck" CHECK ("markets"."status" in ('draft','open','halted','closed','resolved','voided')),
	CONSTRAINT "markets_price_ck" CHECK ("markets"."last_price" between 1 and 99),
	CONSTRAINT "markets_figures_ck" CHECK ("markets"."volume" >= 0 and "markets"."open_interest" >= 0),
	CONSTRAINT "markets_result_ck" CHECK (case "markets"."status" when 'resolved' then coalesce("markets"."result" in ('YES','NO'), false) when 'voided' then coalesce("markets"."result" = 'VOID', false) else "markets"."result" is null end),
	CONSTRAINT "markets_opened_ck" CHECK ("markets"."status" = 'draft' or "markets"."opened_at" is not null),
	CONSTRAINT "markets_closed_ck" CHECK ("markets"."status" not in ('closed','resolved','voided') or "markets"."closed_at" is not null),
	CONSTRAINT "markets_resolved_ck" CHECK (("markets"."status" in ('resolved','voided')) = ("markets"."resolved_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "series_tags" ADD CONSTRAINT "series_tags_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series_tags" ADD CONSTRAINT "series_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_tags" ADD CONSTRAINT "event_tags_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_tags" ADD CONSTRAINT "event_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "markets" ADD CONSTRAINT "markets_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "series_ticker_uq" ON "series" USING btree ("ticker");--> statement-breakpoint
CREATE INDEX "series_tags_tag_idx" ON "series_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX "event_tags_tag_idx" ON "event_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE UNIQUE INDEX "events_ticker_uq" ON "events" USING btree ("ticker");--> statement-breakpoint
CREATE INDEX "events_series_idx" ON "events" USING btree ("series_id");--> statement-breakpoint
CREATE INDEX "events_open_time_idx" ON "events" USING btree ("open_time","id");--> statement-breakpoint
CREATE INDEX "events_close_time_idx" ON "events" USING btree ("close_time","id");--> statement-breakpoint
CREATE INDEX "events_status_idx" ON "events" USING btree ("status","open_time");--> statement-breakpoint
CREATE UNIQUE INDEX "markets_ticker_uq" ON "markets" USING btree ("ticker");--> statement-breakpoint
CREATE INDEX "markets_event_idx" ON "markets" USING btree ("event_id","ticker");--> statement-breakpoint
CREATE INDEX "markets_status_closes_idx" ON "markets" USING btree ("status","closes_at");--> statement-breakpoint
CREATE INDEX "markets_closes_idx" ON "markets" USING btree ("closes_at","id");