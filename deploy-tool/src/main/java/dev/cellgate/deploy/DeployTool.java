package dev.cellgate.deploy;

/** {@code deploy-tool push|list|rollback|diagnose}. */
public final class DeployTool {
    private DeployTool() {
    }

    public static void main(String[] args) {
        System.err.println("deploy-tool: no command is implemented yet");
        System.exit(2);
    }
}
