CREATE TABLE "scim_group_members" (
	"workspace_id" text NOT NULL,
	"group_id" text NOT NULL,
	"scim_user_id" text NOT NULL,
	CONSTRAINT "scim_group_members_workspace_id_group_id_scim_user_id_pk" PRIMARY KEY("workspace_id","group_id","scim_user_id")
);
--> statement-breakpoint
CREATE TABLE "scim_groups" (
	"workspace_id" text NOT NULL,
	"id" text NOT NULL,
	"display_name" text NOT NULL,
	"external_id" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scim_groups_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "scim_tokens" (
	"workspace_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"created_by_name" text NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "scim_tokens_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "scim_users" (
	"workspace_id" text NOT NULL,
	"id" text NOT NULL,
	"user_name" text NOT NULL,
	"external_id" text,
	"email" text,
	"display_name" text,
	"active" boolean DEFAULT true NOT NULL,
	"user_id" text,
	"attributes" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scim_users_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "scim_group_members" ADD CONSTRAINT "scim_group_members_workspace_id_group_id_scim_groups_workspace_id_id_fk" FOREIGN KEY ("workspace_id","group_id") REFERENCES "public"."scim_groups"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_group_members" ADD CONSTRAINT "scim_group_members_workspace_id_scim_user_id_scim_users_workspace_id_id_fk" FOREIGN KEY ("workspace_id","scim_user_id") REFERENCES "public"."scim_users"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_groups" ADD CONSTRAINT "scim_groups_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_tokens" ADD CONSTRAINT "scim_tokens_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_users" ADD CONSTRAINT "scim_users_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_users" ADD CONSTRAINT "scim_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scim_group_members_user_idx" ON "scim_group_members" USING btree ("workspace_id","scim_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_groups_display_name_key" ON "scim_groups" USING btree ("workspace_id",lower("display_name"));--> statement-breakpoint
CREATE UNIQUE INDEX "scim_tokens_hash_key" ON "scim_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_users_user_name_key" ON "scim_users" USING btree ("workspace_id",lower("user_name"));--> statement-breakpoint
CREATE INDEX "scim_users_email_idx" ON "scim_users" USING btree ("workspace_id","email");--> statement-breakpoint
CREATE INDEX "scim_users_user_idx" ON "scim_users" USING btree ("workspace_id","user_id");