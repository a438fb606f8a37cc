CREATE TABLE "campaign_chunks" (
	"workspace_id" text NOT NULL,
	"send_id" text NOT NULL,
	"first_n" integer NOT NULL,
	"last_n" integer NOT NULL,
	"done" boolean DEFAULT false NOT NULL,
	"lease_until" timestamp with time zone,
	"claimed_by" text,
	"not_before" timestamp with time zone,
	CONSTRAINT "campaign_chunks_workspace_id_send_id_first_n_pk" PRIMARY KEY("workspace_id","send_id","first_n")
);
--> statement-breakpoint
CREATE TABLE "campaign_engagement" (
	"workspace_id" text NOT NULL,
	"send_id" text NOT NULL,
	"n" integer NOT NULL,
	"kind" text NOT NULL,
	"link" integer DEFAULT 0 NOT NULL,
	"first_at" timestamp with time zone DEFAULT now() NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "campaign_engagement_workspace_id_send_id_n_kind_link_pk" PRIMARY KEY("workspace_id","send_id","n","kind","link")
);
--> statement-breakpoint
CREATE TABLE "campaign_links" (
	"workspace_id" text NOT NULL,
	"send_id" text NOT NULL,
	"idx" integer NOT NULL,
	"url" text NOT NULL,
	CONSTRAINT "campaign_links_workspace_id_send_id_idx_pk" PRIMARY KEY("workspace_id","send_id","idx")
);
--> statement-breakpoint
CREATE TABLE "campaign_recipients" (
	"workspace_id" text NOT NULL,
	"send_id" text NOT NULL,
	"n" integer NOT NULL,
	"profile_id" text NOT NULL,
	"email" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone,
	"error" text,
	CONSTRAINT "campaign_recipients_workspace_id_send_id_n_pk" PRIMARY KEY("workspace_id","send_id","n")
);
--> statement-breakpoint
CREATE TABLE "campaign_sends" (
	"workspace_id" text NOT NULL,
	"id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"campaign_version" integer NOT NULL,
	"email_id" text NOT NULL,
	"email_version" integer NOT NULL,
	"audience_id" text NOT NULL,
	"sender_id" text NOT NULL,
	"provider" text NOT NULL,
	"state" text NOT NULL,
	"content" jsonb NOT NULL,
	"send_at" timestamp with time zone NOT NULL,
	"snapshot_at" timestamp with time zone,
	"audience_size" integer DEFAULT 0 NOT NULL,
	"recipients" integer DEFAULT 0 NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"created_by_name" text NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"error" text,
	CONSTRAINT "campaign_sends_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "campaign_sends" ADD CONSTRAINT "campaign_sends_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_chunks_open_idx" ON "campaign_chunks" USING btree ("send_id","first_n") WHERE not "campaign_chunks"."done";--> statement-breakpoint
CREATE INDEX "campaign_engagement_kind_idx" ON "campaign_engagement" USING btree ("workspace_id","send_id","kind","first_at");--> statement-breakpoint
CREATE INDEX "campaign_sends_campaign_idx" ON "campaign_sends" USING btree ("workspace_id","campaign_id","created_at");--> statement-breakpoint
CREATE INDEX "campaign_sends_due_idx" ON "campaign_sends" USING btree ("send_at") WHERE "campaign_sends"."state" = 'queued';