package dev.cellgate.core.observe;

/**
 * One resident cell as the operator surface shows it.
 *
 * @param scope      {@code Class:hexid}
 * @param epoch      the ownership epoch this node holds it at
 * @param lastUsedMs when its last event started or ended (wall clock)
 * @param deployment the deployment its instance runs, null when unknown
 * @param name       the name its id was derived from ({@code idFromName}/{@code getByName}) when the
 *                   request that activated it carried one, else null (ids from newUniqueId, alarms)
 */
public record ResidentCell(String scope, long epoch, long lastUsedMs, String deployment, String name) {
}
