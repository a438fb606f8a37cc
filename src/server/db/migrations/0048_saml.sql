CREATE TABLE "saml_assertions" (
	"workspace_id" text NOT NULL,
	"assertion_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "saml_assertions_workspace_id_assertion_id_pk" PRIMARY KEY("workspace_id","assertion_id")
);
--> statement-breakpoint
ALTER TABLE "sso_connections" ADD COLUMN "kind" text DEFAULT 'oidc' NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_connections" ADD COLUMN "saml" jsonb;--> statement-breakpoint
ALTER TABLE "saml_assertions" ADD CONSTRAINT "saml_assertions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;